"""The Chatroom area: the room, posting, muting and the people in it."""
