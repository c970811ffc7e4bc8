-- Lists the UI sorts by name follow the Slovenian alphabet (c, č, d, ... s, š, t, ... z, ž), not the
-- byte order that puts "Č" after "Z". ICU provides it (the embedded PostgreSQL has ICU); a server
-- built without ICU falls back to the byte order rather than failing to start.
do $$
begin
  create collation if not exists public.slovenian (provider = icu, locale = 'sl-SI');
exception when others then
  create collation if not exists public.slovenian from "C";
end
$$;
