from boardrules.cli import main

raise SystemExit(main(prog="python -m boardrules"))
