-- The leaves of the signed consent checkpoints (docs/decisions/0052): each consent stream's length and
-- head hash as a checkpoint fixed them. The checkpoint itself (its root, signed) lives outside the
-- database, in the anchor log; editing these rows changes their root, which the signature shows.
create table public.consent_checkpoint_leaves (
  sequence integer not null,
  stream text not null,
  length integer not null,
  head_hash text not null,
  primary key (sequence, stream)
);
