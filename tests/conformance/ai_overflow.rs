//! Context overflow detection on each provider's overflow error (the original runs these
//! against the live providers; here each provider's documented error text, or the silent
//! overflow usage, is checked).
//! orig-file: packages/ai/test/context-overflow.test.ts

use pi::ai::errors::is_context_overflow;
use pi::ai::types::AssistantMessage;
use serde_json::json;

fn error(text: &str) -> AssistantMessage {
    serde_json::from_value(
        json!({"role": "assistant", "content": [], "api": "x", "provider": "p", "model": "m",
        "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                  "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
        "stopReason": "error", "errorMessage": text, "timestamp": 1}),
    )
    .unwrap()
}

/// `name: provider error text;` rows: each must be recognised as an overflow.
macro_rules! overflows {
    ($($(#[$m:meta])* $name:ident: $text:expr;)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            assert!(is_context_overflow(&error($text), Some(128_000)), "{}", $text);
        }
    )*};
}

overflows! {
    /// orig: Context overflow error handling › Anthropic (API Key) › claude-3-5-haiku - should detect overflow via isContextOverflow
    anthropic_api_key: "prompt is too long: 213462 tokens > 200000 maximum";
    /// orig: Context overflow error handling › Anthropic (OAuth) › claude-sonnet-4 - should detect overflow via isContextOverflow
    anthropic_oauth: "400 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: 250123 tokens > 200000 maximum\"}}";
    /// orig: Context overflow error handling › OpenAI Completions › gpt-4o-mini - should detect overflow via isContextOverflow
    openai_completions: "This model's maximum context length is 128000 tokens. However, your messages resulted in 301234 tokens.";
    /// orig: Context overflow error handling › OpenAI Responses › gpt-4o - should detect overflow via isContextOverflow
    openai_responses: "Your input exceeds the context window of this model. Please adjust your input and try again.";
    /// orig: Context overflow error handling › Azure OpenAI Responses › gpt-4o-mini - should detect overflow via isContextOverflow
    azure_responses: "Your input exceeds the context window of this model.";
    /// orig: Context overflow error handling › Google › gemini-2.0-flash - should detect overflow via isContextOverflow
    google: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).";
    /// orig: Context overflow error handling › Amazon Bedrock › claude-sonnet-4-5 - should detect overflow via isContextOverflow
    bedrock: "ValidationException: Input is too long for requested model.";
    /// orig: Context overflow error handling › xAI › grok-3-fast - should detect overflow via isContextOverflow
    xai: "This model's maximum prompt length is 131072 but the request contains 537812 tokens.";
    /// orig: Context overflow error handling › Groq › llama-3.3-70b-versatile - should detect overflow via isContextOverflow
    groq: "Please reduce the length of the messages or completion.";
    /// orig: Context overflow error handling › Cerebras › qwen-3-235b - should detect overflow via isContextOverflow
    cerebras: "400 status code (no body)";
    /// orig: Context overflow error handling › Hugging Face › Kimi-K2.5 - should detect overflow via isContextOverflow
    hugging_face: "This endpoint's maximum context length is 262144 tokens. However, you requested about 400000 tokens.";
    /// orig: Context overflow error handling › Mistral › devstral-medium-latest - should detect overflow via isContextOverflow
    mistral: "Prompt contains 300000 tokens and 0 draft tokens, too large for model with 131072 maximum context length";
    /// orig: Context overflow error handling › MiniMax › MiniMax-M2.1 - should detect overflow via isContextOverflow
    minimax: "invalid params, context window exceeds limit (2013)";
    /// orig: Context overflow error handling › Kimi For Coding › kimi-k2-thinking - should detect overflow via isContextOverflow
    kimi_for_coding: "Your request exceeded model token limit: 262144 (requested: 400000)";
    /// orig: Context overflow error handling › Vercel AI Gateway › google/gemini-2.5-flash via AI Gateway - should detect overflow via isContextOverflow
    ai_gateway: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048576).";
    /// orig: Context overflow error handling › OpenRouter › anthropic/claude-sonnet-4 via OpenRouter - should detect overflow via isContextOverflow
    openrouter_claude: "This endpoint's maximum context length is 200000 tokens. However, you requested about 500000 tokens (500000 of text input).";
    /// orig: Context overflow error handling › OpenRouter › deepseek/deepseek-v3.2 via OpenRouter - should detect overflow via isContextOverflow
    openrouter_deepseek: "This endpoint's maximum context length is 163840 tokens. However, you requested about 500000 tokens.";
    /// orig: Context overflow error handling › OpenRouter › mistralai/mistral-large-2512 via OpenRouter - should detect overflow via isContextOverflow
    openrouter_mistral: "This endpoint's maximum context length is 262144 tokens. However, you requested about 500000 tokens.";
    /// orig: Context overflow error handling › OpenRouter › google/gemini-2.5-flash via OpenRouter - should detect overflow via isContextOverflow
    openrouter_gemini: "This endpoint's maximum context length is 1048576 tokens. However, you requested about 2000000 tokens.";
    /// orig: Context overflow error handling › OpenRouter › meta-llama/llama-4-maverick via OpenRouter - should detect overflow via isContextOverflow
    openrouter_llama: "This endpoint's maximum context length is 1048576 tokens. However, you requested about 1500000 tokens.";
    /// orig: Context overflow error handling › LM Studio (local) › should detect overflow via isContextOverflow
    lm_studio: "The number of tokens to keep from the initial prompt is greater than the context length.";
    /// orig: Context overflow error handling › llama.cpp (local) › should detect overflow via isContextOverflow
    llama_cpp: "the request exceeds the available context size, try increasing it";
}

/// orig: Context overflow error handling › z.ai › glm-4.5-flash - should detect overflow via isContextOverflow when z.ai reports it
#[test]
fn zai_silent_overflow_by_usage() {
    let mut msg = error("");
    msg.stop_reason = pi::ai::types::StopReason::Stop;
    msg.error_message = None;
    msg.usage.input = 200_000;
    assert!(is_context_overflow(&msg, Some(128_000)));
    let reported = error("model_context_window_exceeded");
    assert!(is_context_overflow(&reported, Some(128_000)));
}

/// orig: Context overflow error handling › Ollama (local) › gpt-oss:20b - should detect overflow via isContextOverflow (ollama silently truncates)
#[test]
fn ollama_explicit_overflow() {
    assert!(is_context_overflow(
        &error("prompt too long; exceeded max context length by 1200 tokens"),
        Some(8192)
    ));
}

/// orig: Context overflow error handling › GitHub Copilot (OAuth) › gpt-4o - should detect overflow via isContextOverflow
#[test]
fn copilot() {
    assert!(is_context_overflow(
        &error("prompt token count of 150000 exceeds the limit of 128000"),
        Some(128_000)
    ));
}

/// orig: Context overflow error handling › Google Gemini CLI (OAuth) › gemini-2.5-flash - should detect overflow via isContextOverflow
#[test]
fn gemini_cli() {
    assert!(is_context_overflow(
        &error(
            "The input token count (1500000) exceeds the maximum number of tokens allowed (1048576)."
        ),
        Some(1_048_576)
    ));
}

/// orig: Context overflow error handling › OpenAI Codex (OAuth) › gpt-5.2-codex - should detect overflow via isContextOverflow
#[test]
fn codex() {
    assert!(is_context_overflow(
        &error("Your input exceeds the context window of this model."),
        Some(272_000)
    ));
}

/// Rate limiting is not an overflow, even when its text mentions tokens.
#[test]
fn throttling_is_not_overflow() {
    assert!(!is_context_overflow(
        &error("ThrottlingException: Too many tokens, please wait before trying again. rate limit"),
        Some(128_000)
    ));
}

/// orig: Context overflow error handling › GitHub Copilot (OAuth) › claude-sonnet-4 - should detect overflow via isContextOverflow
#[test]
fn copilot_claude() {
    assert!(is_context_overflow(
        &error("Input is too long for requested model."),
        Some(128_000)
    ));
}

/// orig: Context overflow error handling › Google Antigravity (OAuth) › gemini-3-flash - should detect overflow via isContextOverflow
#[test]
fn antigravity_gemini() {
    assert!(is_context_overflow(
        &error(
            "The input token count (1500000) exceeds the maximum number of tokens allowed (1048576)."
        ),
        Some(1_048_576)
    ));
}

/// orig: Context overflow error handling › Google Antigravity (OAuth) › claude-sonnet-4-5 - should detect overflow via isContextOverflow
#[test]
fn antigravity_claude() {
    assert!(is_context_overflow(
        &error("prompt is too long: 250000 tokens > 200000 maximum"),
        Some(200_000)
    ));
}
