import { UNSIZED } from './discover.js';

/** How far a running scan is: files and bytes read of those it has to read (totals grow during discovery). */
export interface ScanProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

export function newProgress(): ScanProgress {
  return { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
}

/**
 * Keeps a scan's progress, whose files may be UNSIZED (a cold scan does not stat a file once the
 * threads read): their bytes are known once read. Until then `bytesTotal` counts each of them at
 * the mean size of those read so far (of the sized ones before any was read), so the share shown
 * moves with the reading; it is exact when every file has been read. docs/usage.md.
 */
export class ProgressTally {
  private sizedBytes = 0;
  private sizedFiles = 0;
  private unsizedFiles = 0;
  private unsizedRead = 0;
  private unsizedReadBytes = 0;

  constructor(readonly progress: ScanProgress) {}

  /** A file to read found; `bytes` UNSIZED when not known yet. */
  found(bytes: number): void {
    this.progress.filesTotal++;
    if (bytes === UNSIZED) this.unsizedFiles++;
    else {
      this.sizedFiles++;
      this.sizedBytes += bytes;
    }
    this.estimate();
  }

  /** The files to read are known: `files` of them, `sizedBytes` in those of known size. */
  planned(files: number, sizedBytes: number, unsizedFiles: number): void {
    this.progress.filesTotal = files;
    this.sizedFiles = files - unsizedFiles;
    this.sizedBytes = sizedBytes;
    this.unsizedFiles = unsizedFiles;
    this.estimate();
  }

  /** Files read (negative: a read given up, to be done again); `unsized`: their bytes were learnt by reading them. */
  read(files: number, bytes: number, unsized: boolean): void {
    this.progress.filesDone += files;
    this.progress.bytesDone += bytes;
    if (unsized) {
      this.unsizedRead += files;
      this.unsizedReadBytes += bytes;
      this.estimate();
    }
  }

  private estimate(): void {
    const left = this.unsizedFiles - this.unsizedRead;
    const mean = this.unsizedRead > 0 ? this.unsizedReadBytes / this.unsizedRead : this.sizedFiles > 0 ? this.sizedBytes / this.sizedFiles : 0;
    this.progress.bytesTotal = this.sizedBytes + this.unsizedReadBytes + Math.round(Math.max(0, left) * mean);
  }
}
