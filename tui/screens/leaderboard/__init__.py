"""The Leaderboard area: the standings and Blobfish's community board with its publish dialog."""
