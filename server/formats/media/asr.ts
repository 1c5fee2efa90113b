/**
 * Speech recognition behind a provider interface. No Mandarin model can be installed from npm, so the one provider
 * is a service speaking OpenAI's `POST /v1/audio/transcriptions` (OpenAI itself, or a self-hosted whisper server
 * with the same API), configured by ASR_URL, ASR_API_KEY and ASR_MODEL. Without it, speech tasks take their
 * transcript from subtitles only (GET /misscut/v1/audio/sources tells the page which).
 */
import type { ServerConfig } from '../../config';
import { countProviderError } from '../../metrics';
import type { Cue } from './subtitles';

export interface AsrProvider {
  /** shown in logs */
  readonly name: string;
  /** The timed text of a piece of audio (times from the start of the piece). */
  transcribe(audio: Uint8Array, options: { filename: string; durationMs: number; signal: AbortSignal }): Promise<Cue[]>;
}

/** The service answered with something other than a transcript. */
export class AsrError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AsrError';
    countProviderError('asr');
  }
}

/** The configured provider (config.media.asr), or null when speech recognition is not configured. */
export function asrProvider(settings: ServerConfig['media']['asr']): AsrProvider | null {
  if (!settings.url) return null;
  return new OpenAiTranscriptions(settings.url, settings.apiKey, settings.model, settings.timeoutMs);
}

/** `…/v1/audio/transcriptions` under a base URL (or the URL itself when it already names that path). */
export function transcriptionsUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  if (/\/audio\/transcriptions$/.test(trimmed)) return trimmed;
  return /\/v1$/.test(trimmed) ? `${trimmed}/audio/transcriptions` : `${trimmed}/v1/audio/transcriptions`;
}

const SNIPPET = 300;

export class OpenAiTranscriptions implements AsrProvider {
  readonly name = 'openai-transcriptions';

  constructor(
    private readonly base: string,
    private readonly apiKey: string | undefined,
    private readonly model: string,
    private readonly timeoutMs: number,
  ) {}

  async transcribe(
    audio: Uint8Array,
    options: { filename: string; durationMs: number; signal: AbortSignal },
  ): Promise<Cue[]> {
    const form = new FormData();
    // a copy on its own ArrayBuffer, as Blob wants
    form.append('file', new Blob([new Uint8Array(audio)], { type: 'audio/mpeg' }), options.filename);
    form.append('model', this.model);
    form.append('language', 'zh');
    // verbose_json carries the segments with their start and end (seconds)
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'segment');
    const signal = AbortSignal.any([options.signal, AbortSignal.timeout(this.timeoutMs)]);
    let response: Response;
    try {
      response = await fetch(transcriptionsUrl(this.base), {
        method: 'POST',
        headers: this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {},
        body: form,
        signal,
      });
    } catch (error) {
      if (options.signal.aborted) throw error;
      throw new AsrError(`speech recognition unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    const body = await response.text().catch(() => '');
    if (!response.ok) throw new AsrError(`speech recognition answered ${response.status}: ${body.slice(0, SNIPPET)}`);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new AsrError(`speech recognition answered no JSON: ${body.slice(0, SNIPPET)}`);
    }
    return readTranscription(json, options.durationMs);
  }
}

const record = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The cues of a verbose_json answer: its segments (seconds -> ms), or its whole `text` as one cue over the piece
 * when the service gives no segments (some models answer plain JSON only).
 */
export function readTranscription(json: unknown, durationMs: number): Cue[] {
  if (!record(json)) throw new AsrError('speech recognition answered no transcript');
  const segments = json.segments;
  if (Array.isArray(segments) && segments.length > 0) {
    const cues: Cue[] = [];
    for (const s of segments) {
      if (!record(s) || typeof s.text !== 'string' || typeof s.start !== 'number' || typeof s.end !== 'number')
        throw new AsrError('speech recognition answered malformed segments');
      const text = s.text.trim();
      if (text) cues.push({ start_ms: Math.round(s.start * 1000), end_ms: Math.round(s.end * 1000), text });
    }
    return cues;
  }
  if (typeof json.text !== 'string') throw new AsrError('speech recognition answered no transcript');
  const text = json.text.trim();
  return text ? [{ start_ms: 0, end_ms: durationMs, text }] : [];
}
