import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { AppError, badRequest } from '../../errors';
import type { UploadedFile } from './upload';
import { contentFromHtml, type Content } from './content';
import { detectKind, documentToHtml, extensionOf } from './load';
import { toolSettings } from '../tools';

/** Kinds a document upload accepts: .docx, .pptx, .txt, .md always; .doc and .wps through LibreOffice. */
export type UploadKind = 'docx' | 'pptx' | 'txt' | 'md' | 'doc' | 'wps';

const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** the last search, by the SOFFICE_PATH it was made for */
let found: { configured: string | undefined; path: string | null } | undefined;

/** LibreOffice's `soffice` (SOFFICE_PATH, else the PATH), or null when it is not installed. */
export function findSoffice(): string | null {
  const configured = toolSettings().sofficePath;
  if (found && found.configured === configured) return found.path;
  let sofficePath: string | null = null;
  const candidates = configured
    ? [configured]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .flatMap((dir) => (dir ? [join(dir, 'soffice'), join(dir, 'libreoffice')] : []));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      sofficePath = c;
      break;
    } catch {
      // not here
    }
  }
  found = { configured, path: sofficePath };
  return sofficePath;
}

export const NO_SOFFICE_MSG = 'document.no_soffice';

/**
 * Checks an upload before a job is created (400 with a readable message): empty files, unsupported
 * extensions, content that does not match the extension (an executable renamed .docx ...), and .doc/.wps
 * when LibreOffice is not installed. Deeper problems (corrupt zip, zip bomb, no text) fail the job.
 */
export function checkUpload(file: UploadedFile): UploadKind {
  const ext = extensionOf(file.filename ?? '');
  if (ext === 'doc' || ext === 'wps') {
    if (!file.data.length) throw badRequest('upload.empty_file');
    if (file.data[0] === 0x4d && file.data[1] === 0x5a) throw badRequest('document.executable');
    if (!file.data.subarray(0, 8).equals(OLE)) throw badRequest('document.not_type', { ext });
    if (!findSoffice()) throw badRequest(NO_SOFFICE_MSG);
    return ext;
  }
  return detectKind(file, ['docx', 'pptx', 'txt', 'md']);
}

const run = promisify(execFile);

/** .doc/.wps -> .docx with LibreOffice (headless, private profile, 2-minute limit). */
async function convertWithSoffice(file: UploadedFile, ext: string): Promise<Buffer> {
  const soffice = findSoffice();
  if (!soffice) throw badRequest(NO_SOFFICE_MSG);
  const dir = mkdtempSync(join(tmpdir(), 'wb-soffice-'));
  try {
    const input = join(dir, `input.${ext}`);
    writeFileSync(input, file.data);
    await run(
      soffice,
      [
        '--headless',
        '--norestore',
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--convert-to',
        'docx',
        '--outdir',
        dir,
        input,
      ],
      {
        timeout: 120_000,
      },
    );
    return readFileSync(join(dir, 'input.docx'));
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badRequest('document.soffice_failed', { ext });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The document's content (sanitised HTML and its lines). Throws AppError with a readable message. */
export async function readDocument(file: UploadedFile, kind: UploadKind): Promise<Content> {
  const source =
    kind === 'doc' || kind === 'wps'
      ? {
          filename: file.filename.replace(/\.[a-z]+$/i, '.docx'),
          mimetype: '',
          data: await convertWithSoffice(file, kind),
        }
      : file;
  const { html } = await documentToHtml(source);
  return contentFromHtml(html);
}
