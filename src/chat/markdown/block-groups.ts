/**
 * DOM grouping of many children, apart from parsing: the answer's top-level blocks and a list's items go
 * in `<div part="group">` elements once there are more than a group's worth. A container with hundreds of
 * children is laid out and painted child by child on every change to its last one; a handful of groups
 * (earlier ones with `content-visibility: auto`) is not.
 */
import type { Block } from './block.js';
import { appendNode, createElement, setAttribute, type DomContext } from './inline-dom.js';

/**
 * The answer's top-level blocks go in groups of this many once there are more. The last group is
 * repainted whole on each update, so it is kept small: blocks can be tall (paragraphs, display formulas,
 * code).
 */
export const GROUP_SIZE = 6;
/** A list's items go in groups of this many: items are usually a line each. */
export const LIST_GROUP_SIZE = 32;

/**
 * Counts a child about to be mounted in `block` (whose own element is `element`) and returns the element
 * it goes in. Past {@link GROUP_SIZE} children of the document (a list: {@link LIST_GROUP_SIZE}) they go in
 * groups; the first time, the children so far become the first group.
 */
export function placeChild(cx: DomContext, block: Block, element: ParentNode): ParentNode {
  const size = block.type === 'document' ? GROUP_SIZE : block.type === 'list' ? LIST_GROUP_SIZE : 0;
  if (size === 0) return element;
  const n = block.mounted++;
  if (n === 0 || n % size !== 0) return block.group ?? element;
  const container = element as Node;
  if (block.group === null) {
    const first = createGroup(cx);
    while (container.firstChild) first.appendChild(container.firstChild);
    cx.stats.nodesTouched += size;
    appendNode(cx, container, first);
    // An ordered list's items number themselves across groups (a group contains its counters).
    if (block.listData?.type === 'ordered') {
      let value = block.listData.start;
      for (const li of first.children) setAttribute(cx, li, 'value', String(value++));
    }
  }
  return (block.group = appendNode(cx, container, createGroup(cx)));
}

/** Numbers a new item of an ordered list whose items are grouped (a group resets the counter). */
export function numberItem(cx: DomContext, list: Block, li: Element): void {
  if (list.group && list.listData?.type === 'ordered') {
    setAttribute(cx, li, 'value', String(list.listData.start + list.mounted - 1));
  }
}

function createGroup(cx: DomContext): HTMLElement {
  const div = createElement(cx, 'div');
  setAttribute(cx, div, 'part', 'group');
  setAttribute(cx, div, 'role', 'none');
  return div;
}
