// An agency's or consultant's clients over the API, through the screens' own service
// (api/services/clients.ts): the same rules, the same 404 for another consultant's client.
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { createClientSchema, updateClientSchema } from '../../../common/schemas/clients.ts';
import type { AppContext } from '../../context.ts';
import { createClient, getClient, listClients, ownedClient, updateClient } from '../../services/clients.ts';
import { consultantAccessFor, type ConsultantAccess } from '../../services/plans/consultant-access.ts';
import { describeFields, jsonContent, NO_STORE, pathId, problems, scope, unprocessable, validPathId, type V1Env } from './common.ts';
import { clientListSchema, clientSchema } from './schemas.ts';

const CLIENT_FIELDS = {
  clientName: "The client contact's name: the reports' addressee.",
  clientEmail: "Where the client's reports are e-mailed.",
  notes: 'Your own notes on the client (up to 2,000 characters).',
  reportFrequency: 'How often a report is sent to the client: monthly (the default) or weekly.',
  brandingProfileId: 'One of your branding profiles for its reports; null or absent for your default one.',
};
/** The client's business: the report form's fields. */
const BUSINESS_FIELDS = {
  company: 'The business name.',
  website: "The business's website address (http:// or https://).",
  address: 'Street address.',
  city: 'City.',
  state: 'Two-letter US state code.',
  zip: 'ZIP code (5 digits, or ZIP+4).',
};

type ClientsEnv = V1Env & { Variables: { access: ConsultantAccess } };
const clientId = pathId('clientId', 'A client id from the list.');

export function clientRoutes(ctx: AppContext) {
  const access = createMiddleware<ClientsEnv>(async (c, next) => {
    c.set('access', await consultantAccessFor(ctx, c.get('caller').userId, 'clientManagement'));
    await next();
  });
  // The client is checked before the body is read: another consultant's id is a 404, not a 400.
  const owned = createMiddleware<ClientsEnv>(async (c, next) => {
    await ownedClient(ctx, c.get('access'), validPathId(clientId, c, 'clientId'));
    await next();
  });

  const list = createRoute({
    method: 'get',
    path: '/clients',
    operationId: 'listClients',
    tags: ['Clients'],
    summary: 'List clients',
    description: 'A consultant\'s clients with their latest scores, active first.',
    middleware: [scope('clients:read'), access] as const,
    request: { query: z.object({ search: z.string().max(200).optional().openapi({ description: 'Part of a name, e-mail or company.' }) }) },
    responses: { 200: jsonContent(clientListSchema, 'The clients.'), ...problems(400) },
  });
  const create = createRoute({
    method: 'post',
    path: '/clients',
    operationId: 'createClient',
    tags: ['Clients'],
    summary: 'Add a client',
    description: 'Adds the client and its business; the business is reported on at once, to the client with you in copy.',
    middleware: [scope('clients:write'), access] as const,
    request: { body: { required: true, content: { 'application/json': { schema: describeFields(createClientSchema, { ...CLIENT_FIELDS, ...BUSINESS_FIELDS }).openapi('ClientCreate', { example: { clientName: 'Dana Whitfield', clientEmail: 'dana@whitfield-dental.com', company: 'Whitfield Dental', website: 'https://whitfield-dental.com', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', reportFrequency: 'monthly' } }) } } } },
    responses: { 201: jsonContent(clientSchema, 'The client.'), ...problems(400, 422) },
  });
  const one = createRoute({
    method: 'get',
    path: '/clients/{clientId}',
    operationId: 'getClient',
    tags: ['Clients'],
    summary: 'Get a client',
    description: 'One client with its business, latest scores and the date of its next report.',
    middleware: [scope('clients:read'), access] as const,
    request: { params: clientId },
    responses: { 200: jsonContent(clientSchema, 'The client.'), ...problems(404) },
  });
  const update = createRoute({
    method: 'patch',
    path: '/clients/{clientId}',
    operationId: 'updateClient',
    tags: ['Clients'],
    summary: 'Update a client',
    description: 'Any of the fields; the business\'s details change together or not at all. `archived: true` stops its scheduled reports.',
    middleware: [scope('clients:write'), access, owned] as const,
    request: { params: clientId, body: { required: true, content: { 'application/json': { schema: describeFields(updateClientSchema, { ...CLIENT_FIELDS, archived: 'True stops its scheduled reports; false starts them again.' }).openapi('ClientUpdate', { example: { reportFrequency: 'weekly' } }) } } } },
    responses: { 200: jsonContent(clientSchema, 'The client.'), ...problems(400, 404, 422) },
  });

  return new OpenAPIHono<ClientsEnv>()
    .openapi(list, async (c) => c.json({ clients: await listClients({ ctx, access: c.get('access'), search: c.req.valid('query').search }) }, 200, NO_STORE))
    .openapi(create, async (c) => c.json(await unprocessable(createClient({ ctx, access: c.get('access'), input: c.req.valid('json') })), 201, NO_STORE))
    .openapi(one, async (c) => c.json(await getClient({ ctx, access: c.get('access'), clientId: c.req.valid('param').clientId }), 200, NO_STORE))
    .openapi(update, async (c) => c.json(await unprocessable(updateClient({ ctx, access: c.get('access'), clientId: c.req.valid('param').clientId, input: c.req.valid('json') })), 200, NO_STORE));
}
