import { fileTypeFromFile } from 'file-type';

/** How many leading bytes an upload keeps for the text check (file-type reads the file itself). */
export const SNIFF_HEAD_BYTES = 4100;

/** The type of bytes that are neither a known format nor text. */
export const BINARY_TYPE = 'application/octet-stream';
/** The type of UTF-8 text that is no markup a browser could run. */
export const TEXT_TYPE = 'text/plain; charset=utf-8';
/** The type of text that reads as HTML: never shown in place (opensInline is false for it). */
export const HTML_TYPE = 'text/html; charset=utf-8';
/** The type of text that reads as SVG: a document that can run script, so it downloads too. */
export const SVG_TYPE = 'image/svg+xml';

/**
 * A file's type read from its bytes (SYNC.md A7): the format file-type finds in the file (it reads
 * only what it needs, from the start and, for containers such as a .docx, from inside), else what
 * its leading bytes read as ({@link textTypeOf}). The name and the `Content-Type` a client sent are
 * never asked.
 */
export async function sniffType(filePath: string, head: Uint8Array, wholeFile: boolean): Promise<string> {
  const found = await fileTypeFromFile(filePath);
  if (found) return found.mime;
  return textTypeOf(head, wholeFile);
}

// Markup a browser would run if it ever rendered the text: the WHATWG sniffing table's HTML openers
// at the start, and anywhere in the head the tags that carry script or other documents. A note that
// merely quotes one then downloads instead of opening in place, which costs a click, never a hole.
const HTML_START =
  /^(<!doctype html|<html|<head|<script|<iframe|<h1|<div|<font|<table|<a|<style|<title|<b|<body|<br|<p|<!--)[\s>]/i;
const HTML_ANYWHERE = /<(script|html|body|iframe|object|embed|frameset|meta\s+http-equiv)[\s>/]/i;
// An SVG document: its root element first, after an XML declaration, comments or a doctype.
const SVG_START = /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!doctype[^>]*>\s*)*<svg[\s>]/i;

/**
 * What leading bytes that file-type did not recognise read as: `application/octet-stream` when they
 * hold a NUL or are not UTF-8, else plain text, or HTML or SVG when they read as markup. `wholeFile`
 * says `head` is the whole file (a multi-byte character cut at the head's end is no fault otherwise).
 */
export function textTypeOf(head: Uint8Array, wholeFile: boolean): string {
  if (head.includes(0)) return BINARY_TYPE;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: !wholeFile });
  } catch {
    return BINARY_TYPE;
  }
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (SVG_START.test(start)) return SVG_TYPE;
  if (HTML_START.test(start) || HTML_ANYWHERE.test(start)) return HTML_TYPE;
  return TEXT_TYPE;
}
