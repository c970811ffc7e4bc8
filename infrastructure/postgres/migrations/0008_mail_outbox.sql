-- The local outbox: with no SMTP_URL (the demo), mail is kept here for an admin to read, links and
-- all, so a registration or a reset can be completed by following the link (decision 0017).
create table public.mail_outbox (
  id uuid primary key,
  recipient text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  created_at timestamptz not null default now()
);
create index on public.mail_outbox (created_at desc);
