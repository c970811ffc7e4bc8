/**
 * A report as a printable document with figures, tables and charts (the course report of issue 17
 * item 3): the feature that owns the report writes its words and shapes its data (its layout); the
 * renderer only draws, and knows nothing of courses.
 */
export type ReportFigure = { readonly label: string; readonly value: string; readonly color?: string };

export type ReportColumn = {
  readonly header: string;
  readonly align?: 'left' | 'right' /** Share of the width (defaults: equal). */;
  readonly weight?: number;
};

/**
 * A column chart: a point per label with one value per series, drawn side by side. A point may
 * colour its bars itself (NPS scores by category); otherwise each series has its colour.
 */
export type ReportColumnChart = {
  readonly kind: 'columns';
  readonly title: string;
  readonly series: readonly { readonly name: string; readonly color: string }[];
  readonly points: readonly { readonly label: string; readonly values: readonly number[]; readonly color?: string }[];
};

export type ReportBlock =
  | { readonly kind: 'figures'; readonly items: readonly ReportFigure[] }
  | { readonly kind: 'table'; readonly columns: readonly ReportColumn[]; readonly rows: readonly (readonly string[])[] }
  | ReportColumnChart
  /** Quoted texts with a small line under each (comments with their date). */
  | { readonly kind: 'quotes'; readonly items: readonly { readonly text: string; readonly note: string }[] }
  | { readonly kind: 'note'; readonly text: string }
  | { readonly kind: 'subheading'; readonly text: string };

export type ReportDocument = {
  readonly title: string;
  readonly subtitle: string;
  /** Lines under the title: period, date of the figures, who made it and when. */
  readonly meta: readonly string[];
  readonly sections: readonly { readonly heading: string; readonly blocks: readonly ReportBlock[] }[];
  /** Printed at the foot of every page beside the page number. */
  readonly footer: string;
  /** "stran {page} od {pages}" in the document's language, filled in per page (plain data: documents are drawn in a worker thread). */
  readonly pageLabel: string;
};

/** `owner`: whose request it is (an account, an address): each person's share of the drawing is bounded (render-pool.ts). */
export type ReportDocumentRenderer = { readonly pdf: (document: ReportDocument, owner?: string) => Promise<Buffer> };
