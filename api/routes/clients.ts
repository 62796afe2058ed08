// Client management for consultants (api/services/clients.ts). Each route resolves the signed-in
// consultant first (requireConsultant) and the service checks every id against them; a route
// with a body checks the id before the body, so a stranger learns nothing from a 400.
import { Hono } from 'hono';
import { createClientSchema, sendClientReportSchema, updateClientSchema } from '../../common/schemas/clients.ts';
import type { AppContext } from '../context.ts';
import { validate } from '../lib/validate.ts';
import { clientDetail, sendClientReport } from '../services/client-reports.ts';
import { createClient, deleteClient, deletionPreview, listClients, ownedClient, updateClient } from '../services/clients.ts';
import { requireConsultant } from '../services/plans/consultant-access.ts';

const NO_STORE = { 'Cache-Control': 'private, no-store' };

export function clientRoutes(ctx: AppContext) {
  const access = (c: { req: { raw: Request } }) => requireConsultant(ctx, c.req.raw.headers, 'clientManagement');
  return new Hono()
    .get('/clients', async (c) => c.json({ clients: await listClients({ ctx, access: await access(c), search: c.req.query('search') }) }, 200, NO_STORE))
    .post('/clients', async (c, next) => (await access(c), next()), validate('json', createClientSchema), async (c) =>
      c.json(await createClient({ ctx, access: await access(c), input: c.req.valid('json') }), 201, NO_STORE),
    )
    .get('/clients/:clientId', async (c) => c.json(await clientDetail({ ctx, access: await access(c), clientId: c.req.param('clientId') }), 200, NO_STORE))
    .patch('/clients/:clientId', async (c, next) => (await ownedClient(ctx, await access(c), c.req.param('clientId')), next()), validate('json', updateClientSchema), async (c) =>
      c.json(await updateClient({ ctx, access: await access(c), clientId: c.req.param('clientId'), input: c.req.valid('json') }), 200, NO_STORE),
    )
    .get('/clients/:clientId/deletion', async (c) => c.json(await deletionPreview(ctx, await access(c), c.req.param('clientId')), 200, NO_STORE))
    .delete('/clients/:clientId', async (c) => c.json(await deleteClient({ ctx, access: await access(c), clientId: c.req.param('clientId') }), 200, NO_STORE))
    .post('/clients/:clientId/send', async (c, next) => (await ownedClient(ctx, await access(c), c.req.param('clientId')), next()), validate('json', sendClientReportSchema), async (c) =>
      c.json(await sendClientReport({ ctx, access: await access(c), clientId: c.req.param('clientId'), to: c.req.valid('json').to }), 202, NO_STORE),
    );
}
