// The entry point of a bench command: its exit code, or 1 with the error printed.

export function exitWith(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
