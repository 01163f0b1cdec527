"""The Playground: infer and chat with a model, each answer with its findings."""
