-- The admins' course list (issue 37 item 4): its page, newest change first, read off an index instead
-- of sorting every course. A read model's tables are made by its projection's setup (courses.projection.ts
-- has this index for every generation it makes from now on); this adds it to the generations already
-- there, so no rebuild is needed. Same name as the setup's, so it is never made twice.
do $$
declare
  generation text;
begin
  for generation in select n.nspname from pg_namespace n join pg_class c on c.relnamespace = n.oid
                     where n.nspname like 'rm\_courses\_%' and c.relname = 'courses' and c.relkind = 'r' loop
    execute format('create index if not exists courses_updated_at_id_idx on %I.courses (updated_at desc, id desc)', generation);
  end loop;
end $$;
