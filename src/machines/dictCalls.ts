// Personal dictionary and word libraries, typed by the contract: list, add, update,
// delete, import (multipart with progress, through the upload pipeline), export, template, failures file
// and the built-in word libraries.
import { api, unwrap } from '../api/client';
import type { components, paths } from '../../openapi/schema';
import { uploadMultipart, type UploadOptions } from '../api/upload';

export type DictWord = components['schemas']['DictWord'];
export type WordType = components['schemas']['WordType'];
export type DictPage = { total: number; num: number; size: number; list: DictWord[] };
export type ImportSummary =
  paths['/dict/v1/upload_words']['post']['responses'][200]['content']['application/json']['result'];
export type WordLibrary =
  paths['/user/get_word_library']['get']['responses'][200]['content']['application/json']['result'][number];

export const WORD_TYPES: readonly WordType[] = [5, 4, 9, 1];
export const IMPORT_PATH = '/dict/v1/upload_words';
export const IMPORT_ACCEPT = '.txt,.csv,.xlsx';
export type FileFormat = 'xlsx' | 'csv';

export function dictPage(query: { num: number; size: number; keyword?: string; type?: WordType }) {
  const q = {
    num: query.num,
    size: query.size,
    ...(query.keyword ? { keyword: query.keyword } : {}),
    ...(query.type ? { type: query.type } : {}),
  };
  return unwrap(api.GET('/dict/v1/get_list', { params: { query: q } }));
}

export function addWord(body: { word: string; type: WordType; correct?: string }) {
  return unwrap(api.POST('/dict/v1/add_one', { body }));
}

export function updateWord(body: { id: number; word: string; type: WordType; correct?: string }) {
  return unwrap(api.PUT('/dict/v1/update_one', { body }));
}

export function deleteWord(id: number) {
  return unwrap(api.DELETE('/dict/v1/delete_one', { params: { query: { id } } }));
}

export function deleteWords(ids: number[]) {
  return unwrap(api.POST('/dict/v1/delete_many', { body: { ids } }));
}

export function deleteAllWords() {
  return unwrap(api.POST('/dict/v1/delete_all_word', { body: {} }));
}

/** Uploads the file; rows whose type cell is empty take `fields.type`. */
export function importWordsFile(file: File, options: UploadOptions) {
  return uploadMultipart<ImportSummary>(IMPORT_PATH, file, file.name, options);
}

export function wordLibraries() {
  return unwrap(api.GET('/user/get_word_library', {}));
}

export function selectWordLibraries(ids: number[]) {
  return unwrap(api.POST('/user/select_word_library', { body: { library_ids: ids } }));
}

const today = () => new Date().toISOString().slice(0, 10).replace(/-/g, '');

/** The binary answers, fetched with the session (they are behind the bearer token) and saved under `name`. */
export async function exportDictionary(format: FileFormat) {
  const blob = await unwrap(api.GET('/dict/v1/export_words', { params: { query: { format } }, parseAs: 'blob' }));
  return { blob, name: `个人词库-${today()}.${format}` };
}

export async function importTemplate(format: FileFormat) {
  const blob = await unwrap(api.GET('/dict/v1/import_template', { params: { query: { format } }, parseAs: 'blob' }));
  return { blob, name: `词库导入模板.${format}` };
}

export async function failedRows() {
  const blob = await unwrap(api.GET('/dict/down_words_failed_to_upload', { parseAs: 'blob' }));
  return { blob, name: `导入失败的词语-${today()}.csv` };
}
