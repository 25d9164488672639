package main

import (
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/llm"
)

// embedder returns the embedder --embedder (or $FACTBASE_EMBEDDER) names:
//   - "glove" (the default): the built-in GloVe vectors, offline, no configuration;
//   - "openai": an OpenAI-compatible /v1/embeddings endpoint, configured by
//     $FACTBASE_EMBED_URL, $FACTBASE_EMBED_MODEL and $FACTBASE_EMBED_KEY (optional);
//   - "none": no vectors; search ranks by full text alone.
//
// No network is used unless "openai" is chosen.
func (m *Main) embedder(c *common) (factbase.Embedder, error) {
	switch c.embedder {
	case "", "glove":
		return embed.NewGloVe()
	case "none":
		return nil, nil
	case "openai":
		url, model := m.Getenv("FACTBASE_EMBED_URL"), m.Getenv("FACTBASE_EMBED_MODEL")
		if url == "" || model == "" {
			return nil, factbase.Errorf(factbase.EINVALID, "--embedder openai needs FACTBASE_EMBED_URL and FACTBASE_EMBED_MODEL")
		}
		return llm.NewEmbedder(llm.EmbedderOptions{BaseURL: url, Model: model, APIKey: m.Getenv("FACTBASE_EMBED_KEY"), Logger: c.log})
	}
	return nil, usagef("--embedder %q is not one of glove, openai, none", c.embedder)
}
