/**
 * Where uploaded course videos are hosted (the "Vimeo upload" feature of spec §1). Vimeo is an
 * external edge: the platform talks to it only through this port. The local implementation keeps
 * the video as a platform file, played by the HTML5 player; a Vimeo adapter would answer a Vimeo id.
 */
export type UploadedVideo = { readonly vimeoId: string | null; readonly fileUrl: string | null };

export type VideoHost = {
  upload(video: { name: string; contentType: string; bytes: Buffer; createdBy: number }): Promise<UploadedVideo>;
};

/** The containers accepted, each recognised by its first bytes. */
export const VIDEO_KINDS = {
  // ISO base media (MP4, MOV): a box whose type is "ftyp" at offset 4.
  'video/mp4': (b: Buffer) => b.subarray(4, 8).toString('latin1') === 'ftyp',
  'video/quicktime': (b: Buffer) => b.subarray(4, 8).toString('latin1') === 'ftyp' || b.subarray(4, 8).toString('latin1') === 'moov',
  // Matroska/WebM: the EBML header.
  'video/webm': (b: Buffer) => b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])),
} as const;

export type VideoKind = keyof typeof VIDEO_KINDS;
