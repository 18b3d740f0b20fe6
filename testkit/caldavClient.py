#!/usr/bin/env python3
"""Debian's python3-caldav as an Outpost CalDAV client, for src/server/caldav/caldavPython.test.ts.

One step a run, its answer as JSON on stdout:
  caldavClient.py URL TOKEN discover
  caldavClient.py URL TOKEN create CALENDAR ICAL
  caldavClient.py URL TOKEN list CALENDAR
  caldavClient.py URL TOKEN get CALENDAR UID
  caldavClient.py URL TOKEN set-due CALENDAR UID YYYYMMDD
  caldavClient.py URL TOKEN complete CALENDAR UID
  caldavClient.py URL TOKEN sync CALENDAR [TOKEN]
  caldavClient.py URL TOKEN delete CALENDAR UID
A refusal by the server is printed as {"error": "<exception class>", "message": "..."} with exit code 3.
"""

import datetime
import json
import sys

import caldav
from caldav.lib import error


def todo_json(todo):
    component = todo.icalendar_component
    due = component.get("due")
    return {
        "url": str(todo.url),
        "uid": str(component.get("uid")),
        "summary": str(component.get("summary")),
        "status": str(component.get("status")) if component.get("status") is not None else None,
        "due": due.dt.isoformat() if due is not None else None,
        "related_to": str(component.get("related-to")) if component.get("related-to") is not None else None,
        "data": todo.data,
    }


def main():
    url, token, step = sys.argv[1:4]
    args = sys.argv[4:]
    client = caldav.DAVClient(url=url, username="python", password=token)
    try:
        calendars = client.principal().calendars()

        def calendar(name):
            return next(c for c in calendars if c.name == name)

        if step == "discover":
            out = [
                {"name": c.name, "url": str(c.url), "components": c.get_supported_components()}
                for c in calendars
            ]
        elif step == "create":
            todo = calendar(args[0]).save_todo(ical=args[1])
            out = {"url": str(todo.url)}
        elif step == "list":
            out = [todo_json(t) for t in calendar(args[0]).todos(include_completed=True)]
        elif step == "get":
            out = todo_json(calendar(args[0]).todo_by_uid(args[1]))
        elif step == "set-due":
            todo = calendar(args[0]).todo_by_uid(args[1])
            component = todo.icalendar_component
            day = datetime.datetime.strptime(args[2], "%Y%m%d").date()
            component.pop("DUE", None)
            component.add("due", day)
            todo.save()
            out = {"url": str(todo.url)}
        elif step == "complete":
            todo = calendar(args[0]).todo_by_uid(args[1])
            todo.complete()
            out = {"url": str(todo.url)}
        elif step == "sync":
            collection = calendar(args[0]).objects_by_sync_token(
                sync_token=args[1] if len(args) > 1 else None, load_objects=False
            )
            out = {
                "token": collection.sync_token,
                "objects": [{"url": str(o.url), "etag": o.props.get("{DAV:}getetag")} for o in collection],
            }
        elif step == "delete":
            calendar(args[0]).todo_by_uid(args[1]).delete()
            out = {"deleted": True}
        else:
            raise SystemExit(f"unknown step {step}")
    except (error.DAVError, error.AuthorizationError) as refused:
        print(json.dumps({"error": type(refused).__name__, "message": str(refused)}))
        sys.exit(3)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
