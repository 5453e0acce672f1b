// The docs' samples and examples are added in memory by test/package/docs.test.ts. A sample declares the
// names it takes from the reader's app itself (`declare const apiKey: string`), or uses one of the
// placeholders of app.d.ts, as the README's samples do.
export {};
