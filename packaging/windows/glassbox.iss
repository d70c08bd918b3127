; Inno Setup 6 script: a per-user (or, if chosen, per-machine) installer for the PyInstaller bundle.
;
; Build on Windows (x64) with the app, the [build] extra and Inno Setup 6 installed:
;     python packaging\build.py --installer
; which runs PyInstaller, then:  ISCC /DAppVersion=<app.__version__> /DSourceDir=dist\Glassbox /DOutputDir=dist
; The version is never written here: app/__init__.py is the one source.
;
; Not built or tested in this project's CI (Linux only); see packaging/README.md for what differs on Windows.

#ifndef AppVersion
  #error Pass /DAppVersion=... (python packaging\build.py --installer does it from app/__init__.py)
#endif
#ifndef SourceDir
  #define SourceDir "..\..\dist\Glassbox"
#endif
#ifndef OutputDir
  #define OutputDir "..\..\dist"
#endif

[Setup]
; AppId identifies the app for upgrades and uninstall: never change it.
AppId={{0FCF578E-AB1C-4DE0-9B16-3B9C9B2BC46D}
AppName=Glassbox
AppVersion={#AppVersion}
AppVerName=Glassbox {#AppVersion}
AppPublisher=Glassbox
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\Glassbox
DefaultGroupName=Glassbox
DisableProgramGroupPage=yes
; No administrator rights needed; the user may still choose an install for all users.
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir={#OutputDir}
OutputBaseFilename=Glassbox-{#AppVersion}-windows-setup
SetupIconFile=..\..\resources\icons\glassbox.ico
UninstallDisplayIcon={app}\Glassbox.exe
UninstallDisplayName=Glassbox {#AppVersion}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
; A running Glassbox holds its DLLs open: ask to close it before files are replaced.
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
; The whole onedir bundle: Glassbox.exe, glassbox-cli.exe and _internal\ (Qt, llama.cpp DLLs with the
; OpenMP runtime beside them, the starter model).
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
; Files of an older version that the new one no longer ships would otherwise stay and could be loaded.
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
Name: "{autoprograms}\Glassbox"; Filename: "{app}\Glassbox.exe"; Comment: "Chat with language models on your own computer"
Name: "{autodesktop}\Glassbox"; Filename: "{app}\Glassbox.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\Glassbox.exe"; Description: "{cm:LaunchProgram,Glassbox}"; Flags: nowait postinstall skipifsilent

; Uninstalling removes {app} only. Models, chats and settings live in %LOCALAPPDATA%\Glassbox and stay.
