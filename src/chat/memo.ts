/** One remembered value, made again only when what it was made from changed (as Lit's `guard` does for a template). */

/**
 * Returns a function that gives the value `make` made last while every input is the same (`Object.is`)
 * as then, and otherwise makes it again from the new inputs.
 */
export function createMemo<T>(): (inputs: readonly unknown[], make: () => T) => T {
  let last: { inputs: readonly unknown[]; value: T } | undefined;
  return (inputs, make) => {
    if (last && last.inputs.length === inputs.length && last.inputs.every((input, i) => Object.is(input, inputs[i]))) return last.value;
    last = { inputs, value: make() };
    return last.value;
  };
}
