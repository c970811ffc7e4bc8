-- The admins' user list searches "contains" over names, usernames, e-mails and numbers of tens of
-- thousands of users (issue 14: p99 under 50 ms at 50,000); a trigram index answers it without a
-- full scan. pg_trgm ships with PostgreSQL's contrib (the embedded server has it).
create extension if not exists pg_trgm with schema public;
