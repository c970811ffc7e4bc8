-- Where a file's bytes are (decision 0016): in this row (the default), or in the object store when
-- the "S3 upload" feature of spec §1 is on (then bytes is null and object_key names them there).
alter table public.files alter column bytes drop not null;
alter table public.files add column storage text not null default 'postgres' check (storage in ('postgres', 'object'));
alter table public.files add column object_key text;
alter table public.files add constraint files_bytes_somewhere check ((storage = 'postgres' and bytes is not null) or (storage = 'object' and object_key is not null));
