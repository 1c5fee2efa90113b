// /teamApply (no side bar): apply for a team account for one's organisation. An operator reviews it; on approval
// the applicant becomes the team's root (超级管理员).
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Field, Heading, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap } from '../../../api/client';
import { userInfoQuery } from '../../../api/queries';
import { translateNotice } from '../../notices';

const PHONE = /^1\d{10}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export default function TeamApply() {
  const { t, i18n } = useLingui();
  const me = useQuery(userInfoQuery({ silent: true }));
  const [form, setForm] = useState({
    name: '',
    contact_name: '',
    phone: '',
    email: '',
    address: '',
    user_num: '',
    remark: '',
  });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });
  const phone = form.phone || me.data?.phone || '';
  const submit = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/enterprise/v1/team-application', {
          body: {
            name: form.name.trim(),
            contact_name: form.contact_name.trim(),
            phone,
            ...(form.email.trim() ? { email: form.email.trim() } : {}),
            ...(form.address.trim() ? { address: form.address.trim() } : {}),
            ...(form.user_num ? { user_num: Number(form.user_num) } : {}),
            ...(form.remark.trim() ? { remark: form.remark.trim() } : {}),
          },
        }),
        { silent: true },
      ),
  });
  const valid =
    form.name.trim().length >= 2 &&
    form.contact_name.trim().length >= 1 &&
    PHONE.test(phone) &&
    (!form.email.trim() || EMAIL.test(form.email.trim())) &&
    (!form.user_num || (/^\d+$/.test(form.user_num) && Number(form.user_num) >= 1 && Number(form.user_num) <= 100000));
  return (
    <Box
      maxW="2xl"
      mx="auto"
      mt={{ base: '4', md: '10' }}
      bg="panel"
      borderWidth="1px"
      borderRadius="xl"
      p={{ base: '6', md: '8' }}
      data-testid="team-apply"
    >
      <Heading as="h2" size="lg" mb="2">
        <Trans>申请开通团队版</Trans>
      </Heading>
      <Text color="fg.muted" mb="6">
        <Trans>
          团队版供出版社、报社、机关等单位使用：成员共享词库和领导人词库，管理员分配权益、查看使用数据。提交后我们会尽快审核，通过后您将成为团队的超级管理员。
        </Trans>
      </Text>
      {submit.isSuccess ? (
        <Stack gap="4" data-testid="team-apply-done">
          <Alert.Root status="success">
            <Alert.Indicator />
            <Alert.Title>
              <Trans>申请已提交，审核通过后您会在“我的团队”中看到新团队。</Trans>
            </Alert.Title>
          </Alert.Root>
          <Link href="/" asChild>
            <Button as="a" variant="outline" alignSelf="flex-start">
              <Trans>返回工作台</Trans>
            </Button>
          </Link>
        </Stack>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (valid) submit.mutate();
          }}
        >
          <Stack gap="4">
            {submit.isError ? (
              <Alert.Root status="error" data-testid="team-apply-error">
                <Alert.Indicator />
                <Alert.Title>{translateNotice(i18n, submit.error.message)}</Alert.Title>
              </Alert.Root>
            ) : null}
            <Field.Root required>
              <Field.Label>
                <Trans>单位名称</Trans>
                <Field.RequiredIndicator />
              </Field.Label>
              <Input value={form.name} onChange={set('name')} maxLength={100} data-testid="team-apply-name" />
            </Field.Root>
            <Field.Root required>
              <Field.Label>
                <Trans>联系人</Trans>
                <Field.RequiredIndicator />
              </Field.Label>
              <Input
                value={form.contact_name}
                onChange={set('contact_name')}
                maxLength={50}
                data-testid="team-apply-contact"
              />
            </Field.Root>
            <Field.Root required invalid={!!phone && !PHONE.test(phone)}>
              <Field.Label>
                <Trans>联系电话</Trans>
                <Field.RequiredIndicator />
              </Field.Label>
              <Input value={phone} onChange={set('phone')} inputMode="tel" maxLength={11} />
            </Field.Root>
            <Field.Root invalid={!!form.email.trim() && !EMAIL.test(form.email.trim())}>
              <Field.Label>
                <Trans>邮箱</Trans>
              </Field.Label>
              <Input value={form.email} onChange={set('email')} type="email" maxLength={100} />
            </Field.Root>
            <Field.Root>
              <Field.Label>
                <Trans>地址</Trans>
              </Field.Label>
              <Input value={form.address} onChange={set('address')} maxLength={200} />
            </Field.Root>
            <Field.Root>
              <Field.Label>
                <Trans>预计人数</Trans>
              </Field.Label>
              <Input value={form.user_num} onChange={set('user_num')} inputMode="numeric" maxLength={6} />
            </Field.Root>
            <Field.Root>
              <Field.Label>
                <Trans>用途说明</Trans>
              </Field.Label>
              <Textarea
                value={form.remark}
                onChange={set('remark')}
                maxLength={1000}
                rows={3}
                placeholder={t`例如：编辑部日常稿件校对`}
              />
            </Field.Root>
            <Button
              type="submit"
              colorPalette="blue"
              disabled={!valid}
              loading={submit.isPending}
              alignSelf="flex-start"
              data-testid="team-apply-submit"
            >
              <Trans>提交申请</Trans>
            </Button>
          </Stack>
        </form>
      )}
    </Box>
  );
}
