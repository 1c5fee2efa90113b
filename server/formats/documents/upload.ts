/** A file part of a multipart request, buffered (limit: UPLOAD_LIMIT). */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/** A file part as the multipart plugin stores it (the contract types file parts as `unknown`). */
export function isUploadedFile(value: unknown): value is UploadedFile {
  return (
    typeof value === 'object' &&
    value !== null &&
    'data' in value &&
    Buffer.isBuffer(value.data) &&
    'filename' in value &&
    typeof value.filename === 'string'
  );
}
