import { spawn } from 'node:child_process';
import path from 'node:path';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';

/**
 * ffprobe run with a time limit: a file on a hung mount, a FIFO or a pathological container
 * can keep ffprobe waiting forever, and fluent-ffmpeg's ffprobe neither times out nor hands
 * out the process to kill. Only the fields the gallery reads are described.
 */

export interface ProbeStream {
  readonly codec_type?: string;
  readonly codec_name?: string;
  /** The container's fourcc ('hvc1', 'hev1', 'avc1'); '[0][0][0][0]' where the container has none. */
  readonly codec_tag_string?: string;
  readonly pix_fmt?: string;
  readonly width?: number;
  readonly height?: number;
  /** Seconds, as a decimal string. */
  readonly duration?: string;
  readonly avg_frame_rate?: string;
  readonly r_frame_rate?: string;
  /** Older files carry the rotation as a tag; some muxers put the recording time on the stream. */
  readonly tags?: { readonly rotate?: string; readonly creation_time?: string };
  /** Newer ffprobe reports the display matrix's rotation here. */
  readonly side_data_list?: ReadonlyArray<{ readonly rotation?: number }>;
}

export interface ProbeData {
  readonly streams: readonly ProbeStream[];
  readonly format: {
    /** Comma-separated names ('mov,mp4,m4a,3gp,3g2,mj2'). */
    readonly format_name?: string;
    readonly duration?: string;
    /** The container's metadata ('creation_time', 'com.apple.quicktime.creationdate'…). */
    readonly tags?: Readonly<Record<string, string>>;
  };
}

/** Real output is a few kilobytes; a file with thousands of streams is not a video we show. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Streams and format of `file`. Past `timeoutMs` ffprobe is killed (SIGKILL: a process stuck
 * opening a FIFO does not always act on SIGTERM) and the promise rejects.
 */
export function ffprobe(file: string, timeoutMs: number): Promise<ProbeData> {
  const args = ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file];
  return new Promise((resolve, reject) => {
    const child = spawn(ffprobeInstaller.path, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const name = path.basename(file);
      if (size > MAX_OUTPUT_BYTES) return reject(new Error(`ffprobe wrote more than ${MAX_OUTPUT_BYTES} bytes about ${name}`));
      if (signal !== null) return reject(new Error(`ffprobe did not finish reading ${name} within ${timeoutMs} ms (${signal})`));
      if (code !== 0) return reject(new Error(`ffprobe could not read ${name} (exit ${code}): ${stderr.trim()}`));
      try {
        resolve(parseProbe(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(new Error(`ffprobe gave unreadable output for ${name}`, { cause: err }));
      }
    });
  });
}

function parseProbe(json: string): ProbeData {
  const data = JSON.parse(json) as Partial<ProbeData> | null;
  return { streams: Array.isArray(data?.streams) ? data.streams : [], format: data?.format ?? {} };
}

/** The rotation of a stream in degrees, wherever this ffprobe reports it (0 when none). */
export function streamRotation(stream: ProbeStream): number {
  const fromMatrix = stream.side_data_list?.find((side) => typeof side.rotation === 'number')?.rotation;
  return Number(fromMatrix ?? stream.tags?.rotate ?? 0) || 0;
}
