from boardrules.cli import main

raise SystemExit(main())
