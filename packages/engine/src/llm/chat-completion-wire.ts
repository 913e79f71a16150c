import { z } from 'zod';

// The parts of the OpenAI chat-completions response the engine reads; servers add members freely, and
// zod objects ignore unknown keys, so vLLM/SGLang/llama.cpp/Ollama extensions pass through unharmed.
const topLogprobSchema = z.object({ token: z.string(), logprob: z.number() });

const tokenLogprobSchema = z.object({
  token: z.string(),
  logprob: z.number(),
  top_logprobs: z.array(topLogprobSchema).nullish(),
});

export const chatCompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullish() }).nullish(),
        logprobs: z.object({ content: z.array(tokenLogprobSchema).nullish() }).nullish(),
      }),
    )
    .min(1, 'the completion has no choices'),
  usage: z
    .object({ prompt_tokens: z.number().int().nullish(), completion_tokens: z.number().int().nullish() })
    .nullish(),
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

export const modelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

/** vLLM and SGLang `POST /tokenize` answer with the token ids of the prompt. */
export const tokenizeResultSchema = z.object({ tokens: z.array(z.number().int()) });
