"""What many test folders share: the bot harness and its entry point, the leak scan, live
tables without Discord, the storage backends."""
