from cardsmith.cli import main

main()
