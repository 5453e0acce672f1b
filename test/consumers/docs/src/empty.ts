// The docs' samples and examples are added in memory by test/package/docs.test.ts: each sample declares
// the names it takes from the reader's app itself (`declare const apiKey: string`), so it compiles as shown.
export {};
