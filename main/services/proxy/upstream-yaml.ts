import YAML, { isMap, isSeq, type YAMLMap, YAMLSeq } from 'yaml';

/** One `upstreams` entry of proxy/config.yaml (decisions §4). */
export interface UpstreamEntry {
  name: string;
  format: 'openai' | 'anthropic';
  base_url: string;
  api_key?: string;
  models: string[];
}

export class UpstreamExistsError extends Error {}

/**
 * proxy/config.yaml's text with `upstream` appended to `upstreams`, through the yaml document
 * API so comments, key order and keys this code does not know survive. The caller writes the
 * result through the proxy config file's validated, atomic path.
 */
export function withUpstream(text: string, upstream: UpstreamEntry): string {
  const { doc, seq } = upstreamsOf(text);
  const taken = seq.items.some((item) => isMap(item) && item.get('name') === upstream.name);
  if (taken) throw new UpstreamExistsError(`proxy/config.yaml already has an upstream named ${upstream.name}`);
  const node = doc.createNode(upstream);
  // `models: [a, b]` on one line reads better than a block list in a hand-edited file.
  const models = node.get('models', true);
  if (isSeq(models)) models.flow = true;
  seq.items.push(node);
  return doc.toString();
}

/** One row of the upstream form (issue 30, point 5). `apiKeys` left out keeps the saved keys. */
export interface UpstreamFormRow {
  name: string;
  /** The name it had when the form was read, for a rename; absent for a new upstream. */
  previousName?: string;
  format: 'openai' | 'anthropic';
  baseUrl: string;
  models: string[];
  apiKeys?: string[];
}

export class UpstreamFormError extends Error {}

/**
 * proxy/config.yaml's text with `upstreams` replaced by the form's rows, in the form's order.
 * A row that matches an existing entry (by `previousName`, else `name`) edits that entry's node in
 * place, so its comments and the keys the form does not know survive; entries left out are
 * removed; the rest of the file is untouched (yaml document API).
 */
export function withUpstreamList(text: string, rows: UpstreamFormRow[]): string {
  const names = rows.map((r) => r.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw new UpstreamFormError(`two upstreams are named ${dup}`);
  const { doc, seq } = upstreamsOf(text);
  const byName = new Map<string, YAMLMap>();
  for (const item of seq.items) if (isMap(item) && typeof item.get('name') === 'string') byName.set(item.get('name') as string, item);
  seq.items = rows.map((row) => {
    const node = byName.get(row.previousName ?? row.name);
    if (!node && row.previousName !== undefined) throw new UpstreamFormError(`no upstream named ${row.previousName} to edit (reload the form)`);
    const target = node ?? (doc.createNode({ name: row.name }) as YAMLMap);
    target.set('name', row.name);
    target.set('format', row.format);
    target.set('base_url', row.baseUrl);
    const models = doc.createNode(row.models) as YAMLSeq;
    models.flow = true;
    target.set('models', models);
    if (row.apiKeys !== undefined) {
      if (row.apiKeys.length === 0) target.delete('api_key');
      else target.set('api_key', row.apiKeys.length === 1 ? row.apiKeys[0] : doc.createNode(row.apiKeys));
    }
    return target;
  });
  return doc.toString();
}

/** The document and its `upstreams` list (made when absent); a file that is not a YAML mapping is refused. */
function upstreamsOf(text: string): { doc: YAML.Document.Parsed; seq: YAMLSeq } {
  const doc = YAML.parseDocument(text);
  if (doc.errors.length > 0) throw new Error(`proxy/config.yaml is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  if (doc.contents !== null && !isMap(doc.contents)) throw new Error('proxy/config.yaml: the top level must be a mapping');
  let list = doc.get('upstreams', true);
  if (!isSeq(list)) {
    list = new YAMLSeq();
    doc.set('upstreams', list);
  }
  return { doc, seq: list as YAMLSeq };
}
