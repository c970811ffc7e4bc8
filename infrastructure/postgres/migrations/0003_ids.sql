-- Numeric ids per category (spec routes use numeric ids): one sequence per category, created on first use.
create schema if not exists ids;
