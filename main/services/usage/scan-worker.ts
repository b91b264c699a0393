import { parentPort } from 'node:worker_threads';
import { isNotFound } from '../../infra/file-stat.js';
import { readAgentFile } from './agents/agent-file.js';
import { Pricing } from './pricing.js';
import { sealBatch, type PackedBatch } from './packed-batch.js';
import { packRecords } from './record-pack.js';
import { newScratch, readTranscript, type FileRead, type ReadTask } from './scan-file.js';
import type { UsageRecord } from './types.js';
import { appendAll } from './append-all.js';
import { packReads, type PackedReads } from './read-pack.js';

export interface ScanRequest {
  id: number;
  tasks: ReadTask[];
}

export interface ScanReply {
  id: number;
  reads: PackedReads;
  /** Files that vanished before they could be read. */
  missing: string[];
  /** Files that could not be read for another reason (kept as they were). */
  failed: Array<{ path: string; message: string }>;
  /** Sealed here (keys encoded, checksummed) so the disk cache can write it as it is. */
  packed: PackedBatch;
}

/** Reads the files of one request; shared by scan workers and by in-process scans. */
export function readAll(
  tasks: readonly ReadTask[],
  pricing: Pricing,
  scratch = newScratch(),
): { reads: FileRead[]; missing: string[]; failed: ScanReply['failed'] } {
  const reads: FileRead[] = [];
  const missing: string[] = [];
  const failed: ScanReply['failed'] = [];
  for (const task of tasks) {
    try {
      reads.push(task.agent === undefined ? readTranscript(task, scratch, pricing) : readAgentFile({ ...task, agent: task.agent }, pricing, scratch));
    } catch (err) {
      if (isNotFound(err)) missing.push(task.path);
      else failed.push({ path: task.path, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return { reads, missing, failed };
}

/** One reply: the reads' records packed into typed arrays (one store file can hold 250 000+), sealed as a disk cache segment. */
export function packReply(id: number, reads: readonly FileRead[], missing: string[], failed: ScanReply['failed']): ScanReply {
  const all: UsageRecord[] = [];
  for (const { records, tail } of reads) appendAll(all, records, tail);
  return { id, reads: packReads(reads), missing, failed, packed: sealBatch(packRecords(all)) };
}

if (parentPort) {
  const port = parentPort;
  const scratch = newScratch(4 << 20);
  const pricing = new Pricing();
  port.on('message', (request: ScanRequest) => {
    const { reads, missing, failed } = readAll(request.tasks, pricing, scratch);
    const reply = packReply(request.id, reads, missing, failed);
    const { packed } = reply;
    const buffers = [reply.reads.numbers.buffer, packed.numbers.buffer, packed.refs.buffer, packed.keyLengths.buffer, packed.keyBytes.buffer] as ArrayBuffer[];
    port.postMessage(reply, buffers);
  });
}
