"""`hunt`: play generated boards until the bot loses, and shrink each loss."""
