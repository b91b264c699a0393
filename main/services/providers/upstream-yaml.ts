import YAML, { isMap, isSeq, YAMLSeq } from 'yaml';

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
  const doc = YAML.parseDocument(text);
  if (doc.errors.length > 0) throw new Error(`proxy/config.yaml is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  if (doc.contents !== null && !isMap(doc.contents)) throw new Error('proxy/config.yaml: the top level must be a mapping');
  let list = doc.get('upstreams', true);
  if (!isSeq(list)) {
    list = new YAMLSeq();
    doc.set('upstreams', list);
  }
  const seq = list as YAMLSeq;
  const taken = seq.items.some((item) => isMap(item) && item.get('name') === upstream.name);
  if (taken) throw new UpstreamExistsError(`proxy/config.yaml already has an upstream named ${upstream.name}`);
  const node = doc.createNode(upstream);
  // `models: [a, b]` on one line reads better than a block list in a hand-edited file.
  const models = node.get('models', true);
  if (isSeq(models)) models.flow = true;
  seq.items.push(node);
  return doc.toString();
}
