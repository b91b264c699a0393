import { parentPort } from 'node:worker_threads';
import { isNotFound } from '../../infra/file-stat.js';
import { readAgentFile } from './agents/agent-file.js';
import { Pricing } from './pricing.js';
import { sealBatch, type PackedBatch } from './packed-batch.js';
import { RecordPacker } from './record-pack.js';
import { newScratch, readTranscript, type FileRead, type ReadTask, type Scratch } from './scan-file.js';
import { ReadPacker, type PackedReads } from './read-pack.js';
import { unpackTasks, type PackedTasks } from './task-pack.js';

export interface ScanRequest {
  id: number;
  tasks: PackedTasks;
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

/** Reads the files of one request, handing each read to `onRead`; shared by scan workers and by in-process scans. */
function readEach(tasks: readonly ReadTask[], pricing: Pricing, scratch: Scratch, onRead: (read: FileRead) => void): Pick<ScanReply, 'missing' | 'failed'> {
  const missing: string[] = [];
  const failed: ScanReply['failed'] = [];
  for (const task of tasks) {
    let read: FileRead;
    try {
      read = task.agent === undefined ? readTranscript(task, scratch, pricing) : readAgentFile({ ...task, agent: task.agent }, pricing, scratch);
    } catch (err) {
      if (isNotFound(err)) missing.push(task.path);
      else failed.push({ path: task.path, message: err instanceof Error ? err.message : String(err) });
      continue;
    }
    onRead(read);
  }
  return { missing, failed };
}

/** Reads the files of one request, in this thread. */
export function readAll(tasks: readonly ReadTask[], pricing: Pricing, scratch = newScratch()): { reads: FileRead[]; missing: string[]; failed: ScanReply['failed'] } {
  const reads: FileRead[] = [];
  return { reads, ...readEach(tasks, pricing, scratch, (read) => reads.push(read)) };
}

/** Packs reads into a reply, each as it comes: its records packed into typed arrays, then let go. */
class ReplyPacker {
  private readonly reads = new ReadPacker();

  constructor(private readonly records = new RecordPacker(1024)) {}

  add(read: FileRead): void {
    this.reads.add(read);
    for (const r of read.records) this.records.add(r);
    for (const r of read.tail) this.records.add(r);
  }

  /** The reply, sealed as a disk cache segment (one store file can hold 250 000+ records). */
  reply(id: number, missing: string[], failed: ScanReply['failed']): ScanReply {
    return { id, reads: this.reads.take(), missing, failed, packed: sealBatch(this.records.take()) };
  }
}

/** One reply for reads already made. */
export function packReply(id: number, reads: readonly FileRead[], missing: string[], failed: ScanReply['failed']): ScanReply {
  const packer = new ReplyPacker();
  for (const read of reads) packer.add(read);
  return packer.reply(id, missing, failed);
}

/**
 * Reads and packs one request. Each file's request objects are packed as soon as it is read and
 * die young: held for a whole batch, they outlived several scavenges, each copying them again.
 */
export function scanRequest(request: ScanRequest, pricing: Pricing, scratch: Scratch, records: RecordPacker): ScanReply {
  const packer = new ReplyPacker(records);
  const { missing, failed } = readEach(unpackTasks(request.tasks), pricing, scratch, (read) => packer.add(read));
  return packer.reply(request.id, missing, failed);
}

if (parentPort) {
  const port = parentPort;
  const scratch = newScratch(4 << 20);
  const pricing = new Pricing();
  const records = new RecordPacker(1024);
  port.on('message', (request: ScanRequest) => {
    const reply = scanRequest(request, pricing, scratch, records);
    const { packed } = reply;
    const buffers = [reply.reads.numbers.buffer, packed.numbers.buffer, packed.refs.buffer, packed.keyLengths.buffer, packed.keyBytes.buffer] as ArrayBuffer[];
    port.postMessage(reply, buffers);
  });
}
