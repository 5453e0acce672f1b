/**
 * Provider presets: one function per OpenAI-compatible provider or local server, each returning an
 * {@link LLM} with that provider's default base URL (overridable with `baseURL`), and the two presets of
 * the model APIs beyond Chat Completions: OpenAI's Responses API and Anthropic's Messages API.
 */
import { LLM, type LLMOptions } from './llm.js';

/** Options of a preset: {@link LLMOptions} with `baseURL` optional (it defaults to the provider's). */
export type PresetOptions = Omit<LLMOptions, 'baseURL'> & { baseURL?: string | undefined };

/**
 * The default base URL of each preset. Hosted APIs need an `apiKey`; the local servers listen on their
 * documented default ports and need one only when started with a key.
 */
export const PRESET_BASE_URLS = {
  /** OpenAI. */
  OpenAI: 'https://api.openai.com/v1',
  /** OpenAI's Responses API. */
  OpenAIResponses: 'https://api.openai.com/v1',
  /** Anthropic's Messages API. */
  Anthropic: 'https://api.anthropic.com/v1',
  /** DeepSeek (the API also answers under `/v1`). */
  DeepSeek: 'https://api.deepseek.com',
  /** Moonshot AI / Kimi, international platform (mainland China: `https://api.moonshot.cn/v1`). */
  Moonshot: 'https://api.moonshot.ai/v1',
  /** OpenRouter. */
  OpenRouter: 'https://openrouter.ai/api/v1',
  /** Groq's OpenAI-compatible API. */
  Groq: 'https://api.groq.com/openai/v1',
  /** Mistral AI (La Plateforme). */
  Mistral: 'https://api.mistral.ai/v1',
  /** Ollama's OpenAI-compatible endpoint (`ollama serve`, port 11434; set `OLLAMA_ORIGINS` for CORS). */
  Ollama: 'http://localhost:11434/v1',
  /** LM Studio's local server (port 1234; enable CORS in its server settings). */
  LMStudio: 'http://localhost:1234/v1',
  /** vLLM's OpenAI-compatible server (`vllm serve`, port 8000; `--allowed-origins` for CORS). */
  Vllm: 'http://localhost:8000/v1',
  /** SGLang's server (`python -m sglang.launch_server`, port 30000). */
  Sglang: 'http://localhost:30000/v1',
  /** llama.cpp's `llama-server` (port 8080). */
  LlamaCpp: 'http://localhost:8080/v1',
} as const;

/** The name of a preset. */
export type PresetName = keyof typeof PRESET_BASE_URLS;

const preset = (name: PresetName, model: string, opts: PresetOptions | undefined, defaults?: Partial<LLMOptions>): LLM =>
  new LLM(model, {
    ...defaults,
    ...opts,
    includeUsage: opts?.includeUsage ?? defaults?.includeUsage,
    baseURL: opts?.baseURL ?? PRESET_BASE_URLS[name],
  });

/** OpenAI (`https://api.openai.com/v1`). */
export const OpenAI = (model: string, opts?: PresetOptions): LLM => preset('OpenAI', model, opts);
/**
 * OpenAI's Responses API (`https://api.openai.com/v1/responses`, `api: "responses"`): reasoning summaries
 * (pass `reasoning: {effort, summary: "auto"}` in `requestKwargs` or a run's `kwargs`) and reasoning kept
 * across tool calls. Calls are `store: false`; with `reasoning` set, the encrypted reasoning is asked for
 * and sent back.
 * @example
 * const llm = OpenAIResponses('gpt-5-mini', { apiKey, requestKwargs: { reasoning: { effort: 'low', summary: 'auto' } } });
 */
export const OpenAIResponses = (model: string, opts?: PresetOptions): LLM => preset('OpenAIResponses', model, opts, { api: 'responses' });
/**
 * Anthropic's Messages API (`https://api.anthropic.com/v1/messages`, `api: "anthropic-messages"`): the key
 * goes as `x-api-key`, with `anthropic-version: 2023-06-01` and
 * `anthropic-dangerous-direct-browser-access: true`, the header Anthropic requires to answer a page
 * directly (the page holds the key: use a key of your own, or one the user gave). `max_tokens` defaults to
 * 4096 (plus the thinking budget); extended thinking is `thinking: {type: "enabled", budget_tokens}` in the
 * kwargs, its signed blocks kept and sent back.
 * @example
 * const llm = Anthropic('claude-sonnet-4-5', { apiKey, requestKwargs: { thinking: { type: 'enabled', budget_tokens: 2048 } } });
 */
export const Anthropic = (model: string, opts?: PresetOptions): LLM => preset('Anthropic', model, opts, { api: 'anthropic-messages' });
/** DeepSeek (`https://api.deepseek.com`); reasoning arrives as `reasoning_content`. */
export const DeepSeek = (model: string, opts?: PresetOptions): LLM => preset('DeepSeek', model, opts);
/** Moonshot AI / Kimi (`https://api.moonshot.ai/v1`; pass `baseURL: 'https://api.moonshot.cn/v1'` in mainland China). */
export const Moonshot = (model: string, opts?: PresetOptions): LLM => preset('Moonshot', model, opts);
/** OpenRouter (`https://openrouter.ai/api/v1`); `HTTP-Referer` / `X-Title` can go in `headers`. */
export const OpenRouter = (model: string, opts?: PresetOptions): LLM => preset('OpenRouter', model, opts);
/** Groq (`https://api.groq.com/openai/v1`). */
export const Groq = (model: string, opts?: PresetOptions): LLM => preset('Groq', model, opts);
/**
 * Mistral AI (`https://api.mistral.ai/v1`). Mistral rejects `stream_options` with a 422 and always sends
 * usage in its last chunk, so `includeUsage` defaults to false here.
 */
export const Mistral = (model: string, opts?: PresetOptions): LLM => preset('Mistral', model, opts, { includeUsage: false });
/** Ollama (`http://localhost:11434/v1`). */
export const Ollama = (model: string, opts?: PresetOptions): LLM => preset('Ollama', model, opts);
/** LM Studio (`http://localhost:1234/v1`). */
export const LMStudio = (model: string, opts?: PresetOptions): LLM => preset('LMStudio', model, opts);
/** vLLM (`http://localhost:8000/v1`). */
export const Vllm = (model: string, opts?: PresetOptions): LLM => preset('Vllm', model, opts);
/** SGLang (`http://localhost:30000/v1`). */
export const Sglang = (model: string, opts?: PresetOptions): LLM => preset('Sglang', model, opts);
/** llama.cpp server (`http://localhost:8080/v1`). */
export const LlamaCpp = (model: string, opts?: PresetOptions): LLM => preset('LlamaCpp', model, opts);
