// The outbox transport and what the dev mailbox reads from it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeMailer, mailerFor, messageIdFor, outboxDir } from '../../api/email/mailer.ts';
import { htmlWithInlineImages, listOutbox, mailboxEnabled, readOutboxMessage } from '../../api/email/outbox.ts';
import { loadEnv } from '../../api/env.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
});

it('writes whole .eml files that the mailbox lists newest first and opens with inline images resolved', async () => {
  const mailer = mailerFor(t.ctx);
  expect(mailer.kind).toBe('outbox');
  const id1 = messageIdFor(t.ctx, 'first');
  const sent = await mailer.send({ messageId: id1, from: 'a@example.com', to: 'b@example.com', subject: 'Première', text: 'one', html: '<p>one <img src="cid:logo@x"></p>', attachments: [{ filename: 'logo.png', content: Buffer.from('89504e47', 'hex'), cid: 'logo@x', contentType: 'image/png' }] });
  await new Promise((r) => setTimeout(r, 5));
  await mailer.send({ messageId: messageIdFor(t.ctx, 'second'), from: 'a@example.com', to: 'c@example.com', subject: 'Second', text: 'two' });
  expect(sent.file!.startsWith(outboxDir(t.ctx))).toBe(true);
  expect(mailer.wasDelivered(id1)).toBe(true);
  expect(mailer.wasDelivered(messageIdFor(t.ctx, 'never'))).toBe(false);

  const list = await listOutbox(t.ctx);
  expect(list.map((m) => m.subject)).toEqual(['Second', 'Première']);
  expect(list[1]).toMatchObject({ to: 'b@example.com', attachments: 1 });
  const opened = await readOutboxMessage(t.ctx, list[1]!.file);
  expect(htmlWithInlineImages(opened!.email)).toContain('src="data:image/png;base64,iVBORw=="');
});

it('opens nothing outside the outbox and is off in production', async () => {
  writeFileSync(join(t.dataDir, 'secret.eml'), 'Subject: no');
  expect(await readOutboxMessage(t.ctx, '../secret.eml')).toBeNull();
  expect(await readOutboxMessage(t.ctx, 'missing.eml')).toBeNull();
  expect(mailboxEnabled(t.ctx)).toBe(true);
  expect(mailboxEnabled({ ...t.ctx, env: loadEnv({ NODE_ENV: 'production', ALLOW_SAMPLE_DATA: 'true' }) })).toBe(false);
});
