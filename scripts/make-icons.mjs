#!/usr/bin/env node
// Draws the tray and app icons into resources/ with nothing but Node (zlib for PNG). Run it
// again after changing a shape: `node scripts/make-icons.mjs`. The PNGs are committed.
//
// Tray icons show the proxy state by SHAPE, not colour (macOS template icons are monochrome):
//   running = ring with a filled centre, stopped = empty ring, error = ring with a slash.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const out = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'resources');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** RGBA pixels (Uint8Array, size*size*4) → PNG bytes. */
function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Renders layers of signed-distance shapes (unit square coordinates, 4x4 supersampling).
 * Each layer: {inside(x, y) → boolean, color: [r, g, b, a]}; later layers paint over earlier ones.
 */
function render(size, layers) {
  const px = new Uint8Array(size * size * 4);
  const S = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (const layer of layers) {
        let hits = 0;
        for (let sy = 0; sy < S; sy++) {
          for (let sx = 0; sx < S; sx++) if (layer.inside((x + (sx + 0.5) / S) / size, (y + (sy + 0.5) / S) / size)) hits++;
        }
        const cover = (hits / (S * S)) * (layer.color[3] / 255);
        if (cover === 0) continue;
        // "over" compositing in straight alpha.
        const outA = cover + a * (1 - cover);
        const mix = (src, dst) => (src * cover + dst * a * (1 - cover)) / outA;
        r = mix(layer.color[0], r);
        g = mix(layer.color[1], g);
        b = mix(layer.color[2], b);
        a = outA;
      }
      const i = (y * size + x) * 4;
      px.set([Math.round(r), Math.round(g), Math.round(b), Math.round(a * 255)], i);
    }
  }
  return px;
}

const circle = (cx, cy, rad) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= rad ** 2;
const ring = (cx, cy, outer, inner) => (x, y) => circle(cx, cy, outer)(x, y) && !circle(cx, cy, inner)(x, y);
const not = (f) => (x, y) => !f(x, y);
const and = (...fs) => (x, y) => fs.every((f) => f(x, y));
const or = (...fs) => (x, y) => fs.some((f) => f(x, y));
/** A thick segment from (x1,y1) to (x2,y2). */
const bar = (x1, y1, x2, y2, half) => (x, y) => {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
  return (x - x1 - t * dx) ** 2 + (y - y1 - t * dy) ** 2 <= half ** 2;
};
const roundedSquare = (margin, radius) => (x, y) => {
  const lo = margin + radius;
  const hi = 1 - margin - radius;
  const cx = Math.min(Math.max(x, lo), hi);
  const cy = Math.min(Math.max(y, lo), hi);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
};

/** The tray glyph for a state, as one shape. */
function trayGlyph(state) {
  const outer = ring(0.5, 0.5, 0.44, 0.31);
  if (state === 'running') return or(outer, circle(0.5, 0.5, 0.19));
  if (state === 'stopped') return outer;
  // error: the ring broken by a slash with a gap around it, so it reads at 16 px.
  const slash = bar(0.2, 0.8, 0.8, 0.2, 0.075);
  const gap = bar(0.2, 0.8, 0.8, 0.2, 0.15);
  return or(and(outer, not(gap)), slash);
}

const STATE_COLOURS = { running: [34, 139, 84, 255], stopped: [96, 104, 116, 255], error: [200, 40, 40, 255] };
const WHITE = [255, 255, 255, 255];

function write(name, size, layers) {
  fs.writeFileSync(path.join(out, name), encodePng(size, render(size, layers)));
}

fs.mkdirSync(out, { recursive: true });
for (const state of ['running', 'stopped', 'error']) {
  for (const [suffix, size] of [['', 16], ['@2x', 32]]) {
    // macOS template: black + alpha only; the menu bar tints it.
    write(`tray-${state}Template${suffix}.png`, size, [{ inside: trayGlyph(state), color: [0, 0, 0, 255] }]);
    // Windows/Linux: a coloured glyph on a white disc, readable on light and dark taskbars.
    write(`tray-${state}${suffix}.png`, size, [
      { inside: circle(0.5, 0.5, 0.5), color: WHITE },
      { inside: trayGlyph(state), color: STATE_COLOURS[state] },
    ]);
  }
}

// App icon: three switch rails with knobs on a blue rounded square.
const rails = [0.32, 0.5, 0.68];
const knobs = [0.36, 0.64, 0.46];
write('icon.png', 512, [
  { inside: roundedSquare(0.06, 0.18), color: [37, 99, 235, 255] },
  ...rails.map((y) => ({ inside: bar(0.24, y, 0.76, y, 0.025), color: [219, 234, 254, 255] })),
  ...rails.map((y, i) => ({ inside: circle(knobs[i], y, 0.07), color: WHITE })),
]);
process.stdout.write(`icons written to ${out}\n`);
