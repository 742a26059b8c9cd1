from emulator.sample.bot import main

main()
