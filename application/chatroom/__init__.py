"""The chatroom, without Textual: the feed (ordering, no duplicates) and its polling."""
