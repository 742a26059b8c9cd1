from tests.emulator_sample.bot import main

main()
