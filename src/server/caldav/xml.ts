import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { HttpError } from '../http/errors';

/**
 * The XML of WebDAV and CalDAV bodies (RFC 4918, 4791, 6578): requests read into elements with
 * their namespaces resolved (fast-xml-parser keeps prefixes; the xmlns declarations are applied
 * here), answers written as text.
 */

export const DAV = 'DAV:';
export const CALDAV = 'urn:ietf:params:xml:ns:caldav';
export const CALSERVER = 'http://calendarserver.org/ns/';

/** An element of a request body: its namespace, local name, attributes, children and text. */
export interface XmlElement {
  ns: string;
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  preserveOrder: true,
  trimValues: true,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
});

/** The most elements a request body may hold: a multiget of a few thousand hrefs, not a bomb. */
const MAX_ELEMENTS = 50_000;

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

/** A request body as its root element, or null when there is none; 400 when it is not XML. */
export function parseXml(body: string): XmlElement | null {
  if (body.trim() === '') return null;
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new HttpError(400, `The body is not well-formed XML: ${valid.err.msg}`);
  let parsed: Ordered[];
  try {
    parsed = parser.parse(body) as Ordered[];
  } catch (error) {
    throw new HttpError(400, `The body is not well-formed XML: ${(error as Error).message}`);
  }
  let count = 0;
  const convert = (node: Ordered, scope: Record<string, string>): XmlElement | null => {
    const tag = Object.keys(node).find((key) => key !== ':@');
    if (tag === undefined || tag.startsWith('?') || tag === '#text' || tag === '#comment') return null;
    if (++count > MAX_ELEMENTS) throw new HttpError(413, 'The body holds too many XML elements.');
    const attrs = node[':@'] ?? {};
    const inner = { ...scope };
    const plain: Record<string, string> = {};
    for (const [key, value] of Object.entries(attrs)) {
      if (key === 'xmlns') inner[''] = value;
      else if (key.startsWith('xmlns:')) inner[key.slice(6)] = value;
      else plain[key.includes(':') ? key.slice(key.indexOf(':') + 1) : key] = String(value);
    }
    const colon = tag.indexOf(':');
    const prefix = colon === -1 ? '' : tag.slice(0, colon);
    const element: XmlElement = {
      ns: inner[prefix] ?? '',
      name: colon === -1 ? tag : tag.slice(colon + 1),
      attrs: plain,
      children: [],
      text: '',
    };
    for (const child of (node[tag] as Ordered[] | undefined) ?? []) {
      if ('#text' in child) element.text += String(child['#text']);
      else {
        const converted = convert(child, inner);
        if (converted) element.children.push(converted);
      }
    }
    return element;
  };
  for (const node of parsed) {
    const root = convert(node, {});
    if (root) return root;
  }
  return null;
}

/** The first child of `element` with this namespace and name. */
export const child = (element: XmlElement | null | undefined, ns: string, name: string) =>
  element?.children.find((c) => c.ns === ns && c.name === name);

/** Every child of `element` with this namespace and name. */
export const childrenNamed = (element: XmlElement | null | undefined, ns: string, name: string) =>
  element?.children.filter((c) => c.ns === ns && c.name === name) ?? [];

/** Text escaped for XML content and attribute values. */
export function escapeXml(value: string): string {
  return value.replace(/[<>&"']/g, (ch) =>
    ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '&' ? '&amp;' : ch === '"' ? '&quot;' : '&apos;',
  );
}

/** The prefixes answers use, declared once on the multistatus. */
const PREFIXES: Record<string, string> = { [DAV]: 'd', [CALDAV]: 'c', [CALSERVER]: 'cs' };

/** A property's name as a qualified tag, declaring its namespace inline when it has no fixed prefix. */
export function tagOf(ns: string, name: string): { open: string; close: string; empty: string } {
  const prefix = PREFIXES[ns];
  if (prefix)
    return { open: `<${prefix}:${name}>`, close: `</${prefix}:${name}>`, empty: `<${prefix}:${name}/>` };
  const declared = ns === '' ? '' : ` xmlns:x="${escapeXml(ns)}"`;
  const tag = ns === '' ? name : `x:${name}`;
  return { open: `<${tag}${declared}>`, close: `</${tag}>`, empty: `<${tag}${declared}/>` };
}

/** One property's value: XML already written (an element's content), or nothing for an empty one. */
export interface PropValue {
  ns: string;
  name: string;
  /** Content as XML text (escaped already); '' for an empty element. */
  xml: string;
}

/** One `<d:response>`: the href with its found properties (200) and those it lacks (404). */
export function responseXml(
  href: string,
  found: PropValue[],
  missing: { ns: string; name: string }[],
): string {
  let out = `<d:response><d:href>${escapeXml(href)}</d:href>`;
  if (found.length > 0) {
    out += '<d:propstat><d:prop>';
    for (const prop of found) {
      const tag = tagOf(prop.ns, prop.name);
      out += prop.xml === '' ? tag.empty : `${tag.open}${prop.xml}${tag.close}`;
    }
    out += '</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>';
  }
  if (missing.length > 0) {
    out += '<d:propstat><d:prop>';
    for (const prop of missing) out += tagOf(prop.ns, prop.name).empty;
    out += '</d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>';
  }
  return `${out}</d:response>`;
}

/** A `<d:response>` for an href that is not there (a multiget's unknown href, a sync's deletion). */
export const goneXml = (href: string) =>
  `<d:response><d:href>${escapeXml(href)}</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>`;

/** A multistatus document around responses (and, for a sync, its new token). */
export function multistatus(responses: string, syncToken?: string): string {
  const token = syncToken === undefined ? '' : `<d:sync-token>${escapeXml(syncToken)}</d:sync-token>`;
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:" xmlns:c="${CALDAV}" xmlns:cs="${CALSERVER}">${responses}${token}</d:multistatus>`;
}

/** An error body (RFC 4918 §16): a precondition element when one applies, and the message for people. */
export function errorXml(message: string, precondition?: { ns: string; name: string }): string {
  const condition = precondition ? tagOf(precondition.ns, precondition.name).empty : '';
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:error xmlns:d="DAV:" xmlns:c="${CALDAV}">${condition}<d:responsedescription>${escapeXml(message)}</d:responsedescription></d:error>`;
}
