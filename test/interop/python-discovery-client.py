#!/usr/bin/python3
"""Discovery and identity the way real clients do it, with Debian's python3-requests.

Anonymous basicdeviceinfo.cgi getAllUnrestrictedProperties (apiVersion 1.3), then
getAllProperties with digest (and once without, to see the 401), then param.cgi: a POST
form body with digest, a POST form body sent as text/plain (as one client library does),
and a GET with a comma list of groups with and without root. and a wildcard. Prints one
JSON summary line (a refused device info request shows only its status). Exits 0 on
success, 1 on any other failure.

    python-discovery-client.py BASE_URL USER PASSWORD [--cgi-prefix /axis-cgi]
"""
import argparse
import json
import sys

import requests
from requests.auth import HTTPDigestAuth

TIMEOUT = 5


def parse_params(text):
    """root.Group.Key=value lines to a dict; '# Error' lines under the key 'errors'."""
    params, errors = {}, []
    for line in text.splitlines():
        if line.startswith("#"):
            errors.append(line)
        elif "=" in line:
            key, value = line.split("=", 1)
            params[key] = value
    return params, errors


class Client:
    def __init__(self, args):
        self.args = args
        self.http = requests.Session()
        self.digest = HTTPDigestAuth(args.user, args.password)

    def cgi(self, name):
        return f"{self.args.base_url}{self.args.cgi_prefix}/{name}"

    def device_info(self, method, auth):
        body = {"apiVersion": "1.3", "context": "py", "method": method}
        answer = self.http.post(self.cgi("basicdeviceinfo.cgi"), json=body, auth=auth, timeout=TIMEOUT)
        return answer.status_code, answer.json() if answer.status_code == 200 else None

    @staticmethod
    def answer_fields(reply):
        """apiVersion, context and propertyList of a JSON answer; nothing for a refused request."""
        if reply is None:
            return {}
        return {
            "apiVersion": reply["apiVersion"],
            "context": reply.get("context"),
            "propertyList": reply["data"]["propertyList"],
        }

    def param_form(self, group, content_type=None):
        headers = {"Content-Type": content_type} if content_type else None
        answer = self.http.post(
            self.cgi("param.cgi"),
            data={"action": "list", "group": group},
            headers=headers,
            auth=self.digest,
            timeout=TIMEOUT,
        )
        answer.raise_for_status()
        return answer

    def param_get(self, group):
        answer = self.http.get(
            self.cgi("param.cgi"), params={"action": "list", "group": group}, auth=self.digest, timeout=TIMEOUT
        )
        answer.raise_for_status()
        return answer

    def run(self):
        unrestricted_status, unrestricted = self.device_info("getAllUnrestrictedProperties", auth=None)
        anonymous_all_status, _ = self.device_info("getAllProperties", auth=None)
        all_status, everything = self.device_info("getAllProperties", auth=self.digest)
        form = self.param_form("root.Brand,root.Properties.Firmware.Version,Properties.System.SerialNumber")
        text_plain = self.param_form("root.Brand.ProdNbr", content_type="text/plain")
        listed = self.param_get("root.Input.NbrOfInputs,Output.NbrOfOutputs,root.IOPort.*.Direction,Nope")
        form_params, _ = parse_params(form.text)
        listed_params, listed_errors = parse_params(listed.text)
        return {
            "unrestricted": {"status": unrestricted_status, **self.answer_fields(unrestricted)},
            "anonymousGetAllProperties": anonymous_all_status,
            "all": {"status": all_status, **self.answer_fields(everything)},
            "paramForm": {"contentType": form.headers.get("Content-Type"), "params": form_params},
            "paramTextPlain": parse_params(text_plain.text)[0],
            "paramList": {"params": listed_params, "errors": listed_errors},
        }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url", help="e.g. http://127.0.0.1:8080")
    parser.add_argument("user")
    parser.add_argument("password")
    parser.add_argument("--cgi-prefix", default="/axis-cgi")
    args = parser.parse_args()
    args.base_url = args.base_url.rstrip("/")
    try:
        print(json.dumps({"summary": Client(args).run()}, separators=(",", ":"), sort_keys=True), flush=True)
    except Exception as error:  # noqa: BLE001 - report any failure as exit 1
        print(f"{type(error).__name__}: {error}", file=sys.stderr, flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
