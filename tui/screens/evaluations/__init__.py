"""The Evaluations area: Blobfish SDK evaluations, their rollouts and a rollout's replay."""
