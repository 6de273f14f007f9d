from bot.cli import main

main()
