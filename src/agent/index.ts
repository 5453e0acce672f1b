export {};
export { LLM } from './llm.js';
export type { LLMOptions, LLMRequest, LLMStreamEvent, LLMRetryInfo } from './llm.js';
export { createChunkAssembler, createCompletionDecoder } from './chunk-assembler.js';
export type { AssembledStep, AssemblerDelta, AssemblerStats, ChunkAssembler, CompletionDecoder, CompletionEnd } from './chunk-assembler.js';
export { OpenAI, DeepSeek, Moonshot, OpenRouter, Groq, Mistral, Ollama, LMStudio, Vllm, Sglang, LlamaCpp, PRESET_BASE_URLS } from './presets.js';
export type { PresetOptions, PresetName } from './presets.js';
