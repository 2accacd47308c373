import PhotoCommands

await PhotoctlMain.main()
