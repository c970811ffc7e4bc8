/** Uploaded and produced files, stored once and never changed (decision 0012); only an export's file and a finished import's are ever removed. */
export type FileInfo = {
  readonly id: number;
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
  /** Who uploaded it (null for demo data and imports). */
  readonly createdBy: number | null;
};

export type StoredFile = FileInfo & { readonly bytes: Buffer };

export type FileStore = {
  put(file: { name: string; contentType: string; bytes: Buffer; createdBy: number | null }): Promise<{ id: number }>;
  /** What a file is and who uploaded it, without its bytes: enough to decide who may read it. */
  describe(id: number): Promise<FileInfo | null>;
  get(id: number): Promise<StoredFile | null>;
  /**
   * Removes a file for good (an export file holding an erased person's data, decision 0026): its row
   * and, unless another file has the same content, its bytes in the object store. Removing one that
   * is gone is no error.
   */
  remove(id: number): Promise<void>;
};

/** spec §9: attachments up to 25 MB. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

/** The kinds accepted, each recognised by its first bytes, so a script cannot pass as an image. */
export const FILE_KINDS = {
  'image/png': (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'application/pdf': (b: Buffer) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  // Course attachments (spec §5): GIF87a/GIF89a, and a ZIP archive's local file header (or an empty archive's end record).
  'image/gif': (b: Buffer) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')),
  'application/zip': (b: Buffer) =>
    b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) || b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x05, 0x06])),
} as const;

/** spec §5: course attachments are jpg, png, gif, pdf or zip; covers jpg or png. */
export const ATTACHMENT_KINDS: readonly FileKind[] = ['image/jpeg', 'image/png', 'image/gif', 'application/pdf', 'application/zip'];
export const COVER_KINDS: readonly FileKind[] = ['image/jpeg', 'image/png'];

export type FileKind = keyof typeof FILE_KINDS;
