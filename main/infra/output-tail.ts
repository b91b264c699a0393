/** The last lines a child printed, kept for error messages ("address already in use"). */
export class OutputTail {
  private lines: string[] = [];
  private partial = '';

  constructor(private readonly max = 50) {}

  push(chunk: string | Buffer): void {
    const text = this.partial + chunk.toString();
    const parts = text.split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    if (this.partial.length > 4096) this.partial = this.partial.slice(-4096);
    for (const line of parts) if (line.trim() !== '') this.lines.push(line.slice(0, 2000));
    if (this.lines.length > this.max) this.lines = this.lines.slice(-this.max);
  }

  /** The newest `count` lines (an unfinished last line included). */
  tail(count = this.max): string[] {
    const all = this.partial.trim() !== '' ? [...this.lines, this.partial] : this.lines;
    return all.slice(-count);
  }

  clear(): void {
    this.lines = [];
    this.partial = '';
  }
}
