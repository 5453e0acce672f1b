// The AG-UI and AI SDK readers alone (what 'auto' detection adds to every decoder).
export { createAgUiDialect } from '../../src/wire/dialects/ag-ui.js';
export { createAiSdkDialect } from '../../src/wire/dialects/ai-sdk.js';
