from gate.commands.cli import main

raise SystemExit(main())
