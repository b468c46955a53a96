#!/usr/bin/env python3
"""Switches a fresh moto server to IAM enforcement with a bucket, an admin and a prefix-scoped user.

Run with the Python of moto's virtualenv (it has boto3), against a moto server that has just started (moto checks
nothing yet: INITIAL_NO_AUTH_ACTION_COUNT is unset, so infinite):

  moto-iam.py --endpoint http://127.0.0.1:PORT --bucket lake --user scoped=team-a.json [--user NAME=FILE ...] \
      --out keys.json

1. creates the bucket, a user `objectcommit-admin` allowed everything, and per --user a user `objectcommit-NAME`
   with the policy document of FILE attached (the test harness writes them: test-support MotoIam.prefixPolicy);
2. creates an access key for each;
3. POSTs 0 to /moto-api/reset-auth: moto's server-mode form of INITIAL_NO_AUTH_ACTION_COUNT=0, which also restarts
   its count, so that every request from then on is authenticated and authorized against the IAM policies;
4. writes {"admin": [id, secret], "NAME": [id, secret], ...} to --out (mode 0600; the keys are moto's, valid only
   for this server).
"""
import argparse
import json
import os
import sys
import urllib.request

import boto3

REGION = "us-east-1"


def client(service, endpoint):
    # Before enforcement moto does not check signatures: any key will do.
    return boto3.client(service, endpoint_url=endpoint, region_name=REGION,
                        aws_access_key_id="setup", aws_secret_access_key="setup")


def user_with_policy(iam, name, document):
    iam.create_user(UserName=name)
    arn = iam.create_policy(PolicyName=name + "-policy", PolicyDocument=document)["Policy"]["Arn"]
    iam.attach_user_policy(UserName=name, PolicyArn=arn)
    key = iam.create_access_key(UserName=name)["AccessKey"]
    return [key["AccessKeyId"], key["SecretAccessKey"]]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--endpoint", required=True)
    p.add_argument("--bucket", required=True)
    p.add_argument("--user", action="append", required=True, help="NAME=POLICY_FILE")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    users = {}
    for u in a.user:
        name, _, path = u.partition("=")
        with open(path) as f:
            users[name] = f.read()
        json.loads(users[name])  # fail here, not in moto, on a bad document

    client("s3", a.endpoint).create_bucket(Bucket=a.bucket)
    iam = client("iam", a.endpoint)
    admin = user_with_policy(iam, "objectcommit-admin", json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
    keys = {"admin": admin}
    for name, document in users.items():
        keys[name] = user_with_policy(iam, "objectcommit-" + name, document)

    req = urllib.request.Request(a.endpoint + "/moto-api/reset-auth", data=b"0", method="POST",
                                 headers={"Content-Type": "text/plain"})
    with urllib.request.urlopen(req, timeout=30) as r:
        answer = json.loads(r.read().decode())
    if answer.get("status") != "ok":
        sys.exit("moto-iam: reset-auth answered " + json.dumps(answer))

    fd = os.open(a.out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(keys, f)
    print("moto-iam: enforcement on; bucket " + a.bucket + ", users " + ", ".join("objectcommit-" + n for n in keys),
          file=sys.stderr)


if __name__ == "__main__":
    main()
