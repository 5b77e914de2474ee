// What must hold after any number of sandbox purchases, whatever crashed, was retried or arrived
// twice: every payment the provider captured is paid, enrolled and receipted exactly once, and
// nothing is paid, enrolled or receipted without one. Shared by the payments-fault benchmark and
// the several-processes test.

type Query = <T extends Record<string, unknown>>(text: string) => Promise<T[]>;

/** Each check lists what breaks one invariant (ids, for evidence); all must come back empty. */
const purchaseInvariants: Record<string, string> = {
  "captured, but the order is not paid": `select sp.id from sandbox_payments sp left join orders o on o.provider_order_id = sp.order_id
    where sp.status = 'captured' and o.status is distinct from 'paid'`,
  "captured, but not exactly one captured payments row": `select sp.id from sandbox_payments sp where sp.status = 'captured'
    and (select count(*) from payments p where p.provider_payment_id = sp.id and p.status = 'captured') <> 1`,
  "captured, but not exactly one active enrolment from its order": `select sp.id from sandbox_payments sp left join orders o on o.provider_order_id = sp.order_id
    where sp.status = 'captured' and (select count(*) from enrolments e
      where e.user_id = o.user_id and e.course_id = o.course_id and e.order_id = o.id and e.status = 'active') <> 1`,
  "captured, but not exactly one receipt mail": String.raw`select sp.id from sandbox_payments sp left join orders o on o.provider_order_id = sp.order_id
    where sp.status = 'captured' and (select count(*) from mail_outbox m join "user" u on u.id = o.user_id
      where lower(m."to") = lower(u.email) and m.subject like 'Your receipt for %'
        and substring(m.subject from '\(order ACD-(\d+)\)$')::bigint = o.number) <> 1`,
  "paid orders without a captured payments row": `select o.id::text as id from orders o where o.status = 'paid'
    and not exists (select 1 from payments p where p.order_id = o.id and p.status = 'captured')`,
  "paid orders the provider never captured": `select o.id::text as id from orders o where o.status = 'paid'
    and not exists (select 1 from sandbox_payments sp where sp.order_id = o.provider_order_id and sp.status = 'captured')`,
  "active enrolments without a paid order": `select e.id::text as id from enrolments e left join orders o on o.id = e.order_id
    where e.status = 'active' and o.status is distinct from 'paid'`,
  "payments rows (not failed) on an order that is not paid": `select p.provider_payment_id as id from payments p join orders o on o.id = p.order_id
    where p.status <> 'failed' and o.status <> 'paid'`,
  "receipt mails without a paid order": String.raw`select m.id::text as id from mail_outbox m where m.subject like 'Your receipt for %'
    and not exists (select 1 from orders o join "user" u on u.id = o.user_id where o.status = 'paid'
      and lower(u.email) = lower(m."to") and substring(m.subject from '\(order ACD-(\d+)\)$')::bigint = o.number)`,
  "webhooks the sandbox still owes": `select event || ' ' || event_id || ': ' || coalesce(last_error, 'not answered yet') as id
    from sandbox_webhooks where delivered_at is null`,
};

/** Each invariant's breaking rows: a count and a few ids as evidence. All counts are 0 when the books are right. */
export async function purchaseViolations(query: Query): Promise<Record<string, { count: number; examples: string[] }>> {
  const violations: Record<string, { count: number; examples: string[] }> = {};
  for (const [name, text] of Object.entries(purchaseInvariants)) {
    const rows = await query<{ id: string }>(text);
    violations[name] = { count: rows.length, examples: rows.slice(0, 5).map((r) => r.id) };
  }
  return violations;
}
